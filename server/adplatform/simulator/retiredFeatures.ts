/**
 * Graph features v27.0 retires: from v27.0 a new app may no longer make multi-id reads (`?ids=a,b`),
 * alias fields (`name.as(title)`), override the HTTP method (`method=POST` on a GET) or send async
 * batch requests (`POST /act_X/async_batch_requests`); every other app loses them in v28.0. A call
 * using one on such a version is refused the way Graph refuses a feature of an older version (#12).
 */
import { errorAnswer, type GraphAnswer, type Params } from './answers';
import { parseFields, type FieldNode } from './fieldTree';

/** From this major version a new app may not use them; from the next, no app. */
const RETIRED_FOR_NEW_APPS_FROM = 27;

const majorOf = (version: string) => Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);

/** Whether the retired features are refused at this version for this app. */
export function retiredAt(version: string, newApp: boolean): boolean {
  const major = majorOf(version);
  return major >= RETIRED_FOR_NEW_APPS_FROM + 1 || (newApp && major >= RETIRED_FOR_NEW_APPS_FROM);
}

const hasAlias = (fields: readonly FieldNode[]): boolean =>
  fields.some((field) => 'as' in field.modifiers || hasAlias(field.children ?? []));

/** The retired feature a call uses, by the name Graph's changelog gives it; undefined when none. */
export function retiredFeatureOf(method: string, path: string, params: Params): string | undefined {
  if (params.ids !== undefined) return 'Multi-ID requests (ids=)';
  if (params.method !== undefined) return 'HTTP method override (method=)';
  if (method === 'POST' && /^act_\d+\/async_batch_requests$/.test(path)) return 'Async batch requests';
  if (params.fields?.includes('.as(')) {
    const fields = parseFields(params.fields);
    if (!('error' in fields) && hasAlias(fields)) return 'Field aliases (.as())';
  }
  return undefined;
}

export function retiredFeatureRefusal(
  version: string,
  newApp: boolean,
  call: { method: string; path: string; params: Params },
): GraphAnswer | undefined {
  if (!retiredAt(version, newApp)) return undefined;
  const feature = retiredFeatureOf(call.method, call.path, call.params);
  if (!feature) return undefined;
  const since = newApp ? `v${RETIRED_FOR_NEW_APPS_FROM}.0` : `v${RETIRED_FOR_NEW_APPS_FROM + 1}.0`;
  return errorAnswer(400, 12, `(#12) ${feature} is deprecated for versions ${since} and higher`);
}

/**
 * Graph batch requests: `POST / batch=[{method, relative_url, body, name}]`, at most 50, each item
 * answered as its own call would be (`{code, headers, body}` with the body as a JSON string) and
 * counted separately. What the simulator does not model of batches — dependencies between items
 * (`depends_on`, `{result=…}` references), `omit_response_on_success`, attached files — is refused
 * on that item by name.
 */
import { errorAnswer, type GraphAnswer, type Params } from './answers';
import { graphPath, versionOf } from './versions';

export const MAX_BATCH = 50;

interface BatchItem {
  method?: string;
  relative_url?: string;
  body?: string;
  name?: string;
  [key: string]: unknown;
}

const ITEM_KEYS = ['method', 'relative_url', 'body', 'name'];

export type RunItem = (method: string, path: string, params: Params) => GraphAnswer;
/** An item's refusal before it runs (its version, a feature its version retired); `version` is its own, if any. */
export type CheckItem = (
  version: string | undefined,
  method: string,
  path: string,
  params: Params,
) => GraphAnswer | undefined;

export function answerBatch(raw: string, check: CheckItem, run: RunItem): GraphAnswer {
  let items: BatchItem[];
  try {
    items = JSON.parse(raw) as BatchItem[];
    if (!Array.isArray(items)) throw new Error('not a list');
  } catch {
    return errorAnswer(400, 100, '(#100) The parameter batch must be a JSON array');
  }
  if (items.length > MAX_BATCH)
    return errorAnswer(400, 1, `(#1) Too many requests in batch message. Maximum batch size is ${MAX_BATCH}`);
  const answers = items.map((item) => {
    const answer = answerItem(item ?? {}, check, run);
    return {
      code: answer.status,
      headers: [{ name: 'Content-Type', value: 'text/javascript; charset=UTF-8' }],
      body: JSON.stringify(answer.body),
    };
  });
  return { status: 200, body: answers };
}

function answerItem(item: BatchItem, check: CheckItem, run: RunItem): GraphAnswer {
  const extra = Object.keys(item).find((key) => !ITEM_KEYS.includes(key) && item[key] !== undefined);
  if (extra) return errorAnswer(400, 100, `(#100) The simulator does not model the batch item field ${extra}`);
  const text = `${item.relative_url ?? ''} ${item.body ?? ''}`;
  if (text.includes('{result='))
    return errorAnswer(400, 100, '(#100) The simulator does not model references between batch items ({result=…})');
  const method = (item.method ?? 'GET').toUpperCase();
  const relative = new URL(`http://batch/${(item.relative_url ?? '').replace(/^\/+/, '')}`);
  const params: Params = {
    ...Object.fromEntries(relative.searchParams),
    ...Object.fromEntries(new URLSearchParams(item.body ?? '')),
  };
  const path = graphPath(relative.pathname);
  return check(versionOf(relative.pathname), method, path, params) ?? run(method, path, params);
}

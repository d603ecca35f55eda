/**
 * Which parameters a call may carry. A parameter the simulator does not act on is refused with
 * Graph's error shape, naming it — never ignored: a spec parameter it does not model says so, and
 * one the spec does not list for the call is called unknown.
 */
import { errorAnswer, type GraphAnswer, type Params } from './answers';

/** Parameters of the request itself rather than of the call: the token and its proof, output formatting. */
export const REQUEST_PARAMS: readonly string[] = ['access_token', 'appsecret_proof', 'pretty'];

/** Parameters every list edge takes: fields, cursor paging, filtering and the summary. */
export const LIST_PARAMS: readonly string[] = ['fields', 'limit', 'after', 'before', 'filtering', 'summary'];

export function refuseParams(
  params: Params,
  where: string,
  simulated: readonly string[],
  spec: readonly string[] = [],
): GraphAnswer | undefined {
  for (const name of Object.keys(params)) {
    if (REQUEST_PARAMS.includes(name) || simulated.includes(name)) continue;
    const accepted = simulated.join(', ');
    return spec.includes(name)
      ? errorAnswer(
          400,
          100,
          `(#100) The simulator does not model param ${name} on ${where}: it is in Graph's spec but not simulated. Simulated params: ${accepted}`,
        )
      : errorAnswer(400, 100, `(#100) Unknown param ${name} on ${where}. Params the simulator takes here: ${accepted}`);
  }
  return undefined;
}

/**
 * A cancelled call rejects with its signal's abort reason (a DOMException named AbortError), as
 * fetch does: react-query then counts it as a cancellation, and ra-core's dataProvider proxy, which
 * tests `error instanceof DOMException && error.name === 'AbortError'`, does not log it as a failed
 * call. The http client itself answers `TransportError('aborted')`, which reads as a failure; the
 * dataProvider wraps it with this.
 */
import type { HttpClient, RequestOptions } from './httpClient';

/** The signal's reason when it is a DOMException of this page; otherwise an AbortError made here. */
function abortError(signal: AbortSignal): DOMException {
  // A reason from another realm (jsdom's AbortController beside Node's DOMException in tests)
  // would fail the instanceof test, and a custom reason is no DOMException at all.
  if (signal.reason instanceof DOMException) return signal.reason;
  const message = signal.reason instanceof Error ? signal.reason.message : 'The operation was aborted.';
  return new DOMException(message, 'AbortError');
}

export function rejectingWithAbortReason(http: HttpClient): HttpClient {
  return async <T>(url: string, options?: RequestOptions) => {
    try {
      return await http<T>(url, options);
    } catch (error) {
      if (options?.signal?.aborted) throw abortError(options.signal);
      throw error;
    }
  };
}

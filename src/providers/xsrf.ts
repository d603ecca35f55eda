/**
 * The cross-site request token of docs/contract.md#constants: when the server has set an `XSRF-TOKEN` cookie, calls to
 * the page's own origin send it back as the `X-XSRF-TOKEN` header (a cookie the browser holds for
 * this origin is never sent to another host).
 */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** The value of cookie `name` in a `document.cookie` string, decoded; undefined when absent. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** The header to add to a call to `target`, or nothing. */
export function xsrfHeaders(target: URL, pageOrigin: string, cookies: string): Record<string, string> {
  if (target.origin !== pageOrigin) return {};
  const token = readCookie(cookies, XSRF_COOKIE);
  return token ? { [XSRF_HEADER]: token } : {};
}

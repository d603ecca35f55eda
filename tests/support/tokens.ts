/** Unsigned JWT-shaped tokens for browser tests: only the payload (exp) matters to the client. */
const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** A token expiring `seconds` from now; `tag` tells tokens apart. */
export function fakeJwt(seconds: number, tag = 'access'): string {
  const exp = Math.floor(Date.now() / 1000) + seconds;
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ exp, tag })}.signature`;
}

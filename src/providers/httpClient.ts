/**
 * The one HTTP client of the browser app: JSON, the Bearer token, the XSRF-TOKEN cookie echoed as
 * X-XSRF-TOKEN, success 200–299, react-admin HttpErrors, and the token refresh of docs/screens.md#states-and-transitions (one
 * shared in-flight refresh, one retry).
 */
import { jwtDecode } from 'jwt-decode';
import { HttpError } from 'react-admin';
import { paths } from './apiPaths';
import { responseError, TransportError } from './httpErrors';
import { session as defaultSession, type SessionStore, type SessionUser } from './session';
import { xsrfHeaders } from './xsrf';

export { errorMessages, TransportError } from './httpErrors';

export interface RequestOptions {
  method?: string;
  /** Objects are sent as JSON; strings as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Milliseconds before the call gives up with 'timeout exceeded'; none by default (docs/contract.md#calls). */
  timeout?: number;
  /** Send the access token (default true). */
  auth?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

export type HttpClient = <T = unknown>(url: string, options?: RequestOptions) => Promise<HttpResponse<T>>;

/** Refresh this long before the access token expires. */
export const REFRESH_AHEAD_MS = 30_000;

interface TokenPair {
  access: string;
  refresh?: string;
}

export interface HttpClientDeps {
  session?: SessionStore;
  fetch?: typeof fetch;
  now?: () => number;
  /** Whether the login screen is showing (no refresh there, docs/screens.md#states-and-transitions). */
  onLoginScreen?: () => boolean;
  /** The page's cookies (`document.cookie`), for the XSRF-TOKEN of docs/contract.md#constants. */
  cookies?: () => string;
  /** The page's address: relative call URLs resolve against it. */
  pageUrl?: () => string;
}

const browserCookies = () => (typeof document !== 'undefined' ? document.cookie : '');
const browserPageUrl = () => (typeof window !== 'undefined' ? window.location.href : 'http://localhost/');
const WEB_PROTOCOLS = new Set(['http:', 'https:']);

const browserOnLoginScreen = () =>
  typeof window !== 'undefined' && window.location.pathname.replace(/\/+$/, '').endsWith('/login');

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function expiresAt(token: string): number | undefined {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export function createHttpClient(deps: HttpClientDeps = {}) {
  const store = deps.session ?? defaultSession;
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const now = deps.now ?? Date.now;
  const onLoginScreen = deps.onLoginScreen ?? browserOnLoginScreen;
  const cookies = deps.cookies ?? browserCookies;
  const pageUrl = deps.pageUrl ?? browserPageUrl;
  const sessionCalls = new Set<string>([paths.token, paths.tokenRefresh]);
  let refreshing: Promise<void> | null = null;

  /** One HTTP exchange, no refresh logic. */
  async function send<T>(url: string, options: RequestOptions, accessToken: string | null): Promise<HttpResponse<T>> {
    const page = new URL(pageUrl());
    const target = new URL(url, page);
    if (!WEB_PROTOCOLS.has(target.protocol)) throw new TransportError('protocol');
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...xsrfHeaders(target, page.origin, cookies()),
      ...options.headers,
    };
    let body: BodyInit | undefined;
    if (options.body !== undefined && options.body !== null) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    if (accessToken && options.auth !== false) headers.Authorization = `Bearer ${accessToken}`;

    const controller = new AbortController();
    let timedOut = false;
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort);
    if (options.signal?.aborted) controller.abort();
    const timer = options.timeout
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeout)
      : undefined;

    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { method: options.method ?? 'GET', headers, body, signal: controller.signal });
      text = await response.text();
    } catch {
      throw new TransportError(timedOut ? 'timeout' : controller.signal.aborted ? 'aborted' : 'network');
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    }
    const json = parseJson(text);
    if (response.status < 200 || response.status > 299) throw responseError(response.status, json);
    return { status: response.status, headers: response.headers, body: text, json: json as T };
  }

  async function runRefresh(): Promise<void> {
    const refresh = store.get().refresh_token;
    if (!refresh) {
      store.clear();
      throw new HttpError('Session expired', 401, null);
    }
    let tokens: TokenPair;
    try {
      tokens = (await send<TokenPair>(paths.tokenRefresh, { method: 'POST', body: { refresh }, auth: false }, null))
        .json;
    } catch (error) {
      // A network blip is not a refused refresh: keep the session so the next call can try again.
      if (!(error instanceof TransportError)) store.clear();
      throw error;
    }
    // Refresh tokens rotate: the old one is spent, so keep the new one.
    store.update({ access_token: tokens.access, refresh_token: tokens.refresh ?? refresh });
    try {
      const user = (await send<SessionUser>(paths.me, {}, tokens.access)).json;
      store.update({ user });
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        store.clear();
        throw error;
      }
      // The user data stays as it was; the fresh tokens are still good.
    }
  }

  /** Refreshes the session; parallel callers share one refresh call. */
  function refreshSession(): Promise<void> {
    refreshing ??= runRefresh().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** Waits for a running refresh, or starts one when the access token is about to expire. */
  async function refreshIfExpiring(): Promise<void> {
    // A failed refresh here is handled by the 401 path of the call itself.
    if (refreshing) return refreshing.catch(() => undefined);
    const { access_token, refresh_token } = store.get();
    if (!access_token || !refresh_token) return;
    const expiry = expiresAt(access_token);
    if (expiry === undefined || expiry - now() > REFRESH_AHEAD_MS) return;
    await refreshSession().catch(() => undefined);
  }

  const request: HttpClient = async <T>(url: string, options: RequestOptions = {}) => {
    const isSessionCall = sessionCalls.has(url);
    const withAuth = options.auth !== false && !isSessionCall;
    if (withAuth) await refreshIfExpiring();
    const tokenUsed = withAuth ? store.get().access_token : null;
    try {
      return await send<T>(url, options, tokenUsed);
    } catch (error) {
      // With no refresh token the refresh fails at once and ends the session (docs/screens.md#states-and-transitions).
      const hadSession = Boolean(tokenUsed) || Boolean(store.get().refresh_token);
      const retry = error instanceof HttpError && error.status === 401 && withAuth && !onLoginScreen() && hadSession;
      if (!retry) throw error;
      // Another call may have refreshed while this one was on its way: then just repeat it.
      if (store.get().access_token === tokenUsed) {
        try {
          await refreshSession();
        } catch {
          throw error;
        }
      }
      return send<T>(url, options, store.get().access_token);
    }
  };

  return { request, refreshSession };
}

const defaultClient = createHttpClient();

/** The app's client: `httpClient(paths.log + '?limit=10')` → `{status, headers, body, json}`. */
export const httpClient: HttpClient = defaultClient.request;
export const refreshSession = defaultClient.refreshSession;

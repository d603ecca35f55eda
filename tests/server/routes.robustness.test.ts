/**
 * Bad input never produces a 500: every API route, called by a superuser with malformed ids,
 * bodies and query strings, answers in the contract's shape (4xx `{detail}` / `{field: [...]}`)
 * or succeeds. The route list comes from the API's own OpenAPI document, so a new route is
 * covered the day it is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi, TestUser } from '../support/api';
import { type AllServicesApi, apiWithAllServices } from './run/support';

// Beyond the integer id columns (2^31) and the bigint ones (2^63, campaign ids: 19 digits do not all fit).
const BAD_IDS = [
  '0',
  '-1',
  'abc',
  '2147483648',
  '9223372036854775808',
  '9999999999999999999',
  '99999999999999999999',
  '1.5',
  '%27%3B--',
];
const BAD_BODIES: unknown[] = [
  {},
  {
    name: 12,
    email: ['x'],
    is_active: 'yes',
    group_access: 'all',
    rule_filter: 'x',
    rule_task: [1, 2],
    rule_schedule: { schedule: 'x' },
  },
  { id: null, folder: 'abc', limit: -5, password: 1, client_type: {}, plan: [], meta_ad_account_id: 999999 },
  [],
  'a string',
];
const BAD_QUERIES = [
  'limit=-1&offset=abc',
  'limit=abc&ordering=-nope,,%2C',
  // Names every object has: an ordering key is looked up among the sortable columns only.
  'ordering=__proto__,-constructor,toString',
  'search=%25%5F%5C&rule_id_in=a,b,-1',
  'spend_range_min=abc&event_date_after=2026-13-45&is_webinar=maybe',
  'campaign_id__in=9999999999999999999,1&rule_id_in=2147483648&rule_id=9223372036854775808&folder_id=99999999999',
];

/** Routes that end a session or act on the caller; they run last, once. */
const LAST = ['/api/user/change_password/'];

describe('no request makes the API fail with a 500', () => {
  let api: TestApi;
  let server: AllServicesApi;
  let admin: TestUser;
  let routes: { method: string; path: string }[];

  beforeAll(async () => {
    // A real server's services: the ad platform (simulator), campaign sync, rule engine, mail.
    server = await apiWithAllServices('ad-rules-robustness-');
    api = server.api;
    admin = await api.userWith('superuser');
    const schema = (await api.app.inject({ method: 'GET', url: '/api/schema/' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = Object.entries(schema.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })))
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'HEAD' && !LAST.includes(r.path));
  });
  afterAll(() => server.close());

  it('finds the API routes in the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual({ method: 'PATCH', path: '/api/rule/{id}/' });
  });

  it('answers every malformed call with a client error in the contract shape, never a 500', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const urls = route.path.includes('{')
        ? BAD_IDS.map((id) => route.path.replace(/\{[^}]+\}/g, id))
        : BAD_QUERIES.map((q) => `${route.path}?${q}`);
      for (const url of urls) {
        const bodies = route.method === 'GET' || route.method === 'DELETE' ? [undefined] : BAD_BODIES;
        for (const payload of bodies) {
          const response = await api.request(admin.token, {
            method: route.method as 'GET',
            url,
            ...(payload === undefined ? {} : { payload: payload as object }),
          });
          if (response.statusCode >= 500) {
            failures.push(
              `${route.method} ${url} ${JSON.stringify(payload)} → ${response.statusCode} ${response.body.slice(0, 160)}`,
            );
          } else if (response.statusCode >= 400) {
            const body = response.json() as Record<string, unknown>;
            if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.keys(body).length) {
              failures.push(`${route.method} ${url} → ${response.statusCode} with body ${response.body.slice(0, 80)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000); // several malformed calls to each of some fifty routes

  it('lets a signed-in user with no permissions do nothing but look at and change their own account', async () => {
    const nobody = await api.userWith([]);
    const open = new Set([
      'GET /api/user/me/',
      'POST /api/user/change_password/',
      // Public by nature: signing in, joining, resetting a forgotten password.
      'POST /api/token/',
      'POST /api/token/refresh/',
      'POST /api/token/logout/',
      'POST /api/user_invite/',
      'POST /api/user/send_password_reset/',
      'POST /api/user/set_password_reset/',
    ]);
    const allowed: string[] = [];
    for (const route of routes) {
      const url = route.path.replace(/\{[^}]+\}/g, String(admin.id));
      const response = await api.request(nobody.token, {
        method: route.method as 'GET',
        url,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (response.statusCode < 300 && !open.has(`${route.method} ${route.path}`))
        allowed.push(`${route.method} ${url}`);
      expect(response.statusCode, `${route.method} ${url}`).toBeLessThan(500);
    }
    expect(allowed).toEqual([]);
  });

  it('refuses every route but the public ones without a token', async () => {
    const answered: string[] = [];
    for (const route of routes) {
      const url = route.path.replace(/\{[^}]+\}/g, '1');
      const response = await api.request(null, {
        method: route.method as 'GET',
        url,
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      if (response.statusCode !== 401) answered.push(`${route.method} ${route.path} → ${response.statusCode}`);
    }
    expect(answered.sort()).toEqual(
      [
        'POST /api/token/ → 400',
        'POST /api/token/refresh/ → 400',
        'POST /api/token/logout/ → 400',
        'POST /api/user/confirm_email_change/ → 400',
        'POST /api/user/send_password_reset/ → 400',
        'POST /api/user/set_password_reset/ → 400',
        'POST /api/user_invite/ → 400',
        // Meta's webhooks, on a server without META_APP_SECRET and META_WEBHOOK_VERIFY_TOKEN.
        'GET /api/meta/webhooks/ → 404',
        'POST /api/meta/webhooks/ → 404',
      ].sort(),
    );
  });
});

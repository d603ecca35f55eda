/**
 * The OpenAPI document at /api/schema/ describes the whole API from the routes' own schemas:
 * every input (path, query, body) and every answer a route declares has a schema, secured routes
 * say so, and the interactive reference at /api/docs/ is served to anyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi, USER_FIELDS } from '../support/api';

type JsonSchema = { properties?: Record<string, unknown> };

interface Operation {
  tags?: string[];
  parameters?: { name: string; in: string; schema?: object }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: Record<string, string[]>[];
}

/** POST calls that act on the object in their path and take no body. */
const BODILESS_ACTIONS = [
  '/api/folders/{id}/move_to_trash/',
  '/api/folders/{id}/restore/',
  '/api/rules/{id}/duplicate_rule/',
  '/api/rules/{id}/move_to_trash/',
  '/api/rules/{id}/restore/',
  '/api/rules/{id}/run_now/',
  '/api/rule_log/{id}/undo/',
  '/api/campaigns/{campaign_id}/update_campaign/',
  '/api/campaigns/sync/',
  '/api/user_invite/{id}/resend/',
  '/api/rule_runs/{id}/approve/',
  '/api/rule_runs/{id}/dismiss/',
];

const PUBLIC = [
  'POST /api/token/',
  'POST /api/token/refresh/',
  'POST /api/token/logout/',
  'POST /api/user_invite/',
  'POST /api/user/send_password_reset/',
  'POST /api/user/set_password_reset/',
  'POST /api/user/confirm_email_change/',
  // A CRM's call, authenticated by a folder's lead outcome key rather than a session.
  'POST /api/lead_outcomes/',
  // Meta's ads webhooks: the handshake by the verify token, deliveries by the app secret's signature.
  'GET /api/meta/webhooks/',
  'POST /api/meta/webhooks/',
];

describe('the OpenAPI document', () => {
  let api: TestApi;
  let operations: { method: string; path: string; op: Operation }[];

  beforeAll(async () => {
    api = await createTestApi('pglite');
    const response = await api.request(null, { method: 'GET', url: '/api/schema/' });
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, Operation>> }).paths;
    // The API's routes; operational endpoints outside /api/ are not part of its contract.
    operations = Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
      );
  });
  afterAll(() => api.close());

  const jsonSchemaOf = (content: Record<string, { schema?: JsonSchema }> | undefined) =>
    content?.['application/json']?.schema;
  /** A request body's schema: JSON, or a CSV file's text (the lead outcome upload). */
  const bodySchemaOf = (content: Record<string, { schema?: JsonSchema }> | undefined) =>
    jsonSchemaOf(content) ?? content?.['text/csv']?.schema;

  it('lists every route of the API, each with a tag', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.filter((o) => !o.op.tags?.length).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it('describes every path parameter', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations) {
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        const param = op.parameters?.find((p) => p.in === 'path' && p.name === name);
        if (!param?.schema) missing.push(`${method} ${path} {${name}}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes the request body of every call that sends one, an empty one included', () => {
    const missing = operations
      .filter(({ method, op }) => ['POST', 'PUT', 'PATCH'].includes(method) || op.requestBody)
      .filter(({ op }) => !bodySchemaOf(op.requestBody?.content))
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing).toEqual([]);
    // The calls that act on the object in their path say their body is empty, not that it is unknown.
    for (const path of BODILESS_ACTIONS) {
      const action = operations.find((o) => o.method === 'POST' && o.path === path);
      expect(action, path).toBeDefined();
      expect(Object.keys(jsonSchemaOf(action!.op.requestBody?.content)?.properties ?? {}), path).toEqual([]);
    }
  });

  it('describes the paging parameters of every list', () => {
    const lists = operations.filter(({ method, op }) => {
      const properties = jsonSchemaOf(op.responses['200']?.content)?.properties ?? {};
      return method === 'GET' && 'results' in properties && 'count' in properties && 'next' in properties;
    });
    expect(lists.length).toBeGreaterThanOrEqual(9);
    const missing = lists
      // A rule's exemptions are few and come whole, in the page envelope for uniformity.
      .filter(({ path }) => path !== '/api/rules/{id}/exemptions/')
      .filter(
        ({ op }) =>
          !['limit', 'offset'].every((name) => op.parameters?.some((p) => p.in === 'query' && p.name === name)),
      )
      .map(({ path }) => path);
    expect(missing).toEqual([]);
  });

  it('gives every route a success answer and a schema for each status it declares', () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations) {
      const statuses = Object.keys(op.responses);
      if (!statuses.some((s) => s.startsWith('2'))) problems.push(`${method} ${path}: no success status`);
      for (const status of statuses) {
        if (!jsonSchemaOf(op.responses[status]?.content)) problems.push(`${method} ${path} ${status}: no schema`);
      }
      if (op.requestBody && !statuses.includes('400')) problems.push(`${method} ${path}: takes a body but no 400`);
      if (path.includes('{') && !statuses.includes('404') && !statuses.includes('400'))
        problems.push(`${method} ${path}: names an object but declares no 404`);
    }
    expect(problems).toEqual([]);
  });

  it('marks every route but the public ones as needing a bearer token, answering 401 without one', () => {
    const open: string[] = [];
    for (const { method, path, op } of operations) {
      const secured = op.security?.some((s) => 'bearerAuth' in s) ?? false;
      if (!secured) open.push(`${method} ${path}`);
      else expect(op.responses, `${method} ${path}`).toHaveProperty('401');
    }
    expect(open.sort()).toEqual([...PUBLIC].sort());
  });

  it('serves the interactive reference at /api/docs/ without signing in', async () => {
    const page = await api.request(null, { method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger');
    const document = await api.request(null, { method: 'GET', url: '/api/docs/json' });
    expect(document.statusCode).toBe(200);
    expect(Object.keys(document.json().paths)).toContain('/api/rule/{id}/');
  });
});

describe('answers serialised from their schemas', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi('pglite');
  });
  afterAll(() => api.close());

  it('shows a user only the fields the user schema names (no password hash, no internal columns)', async () => {
    const user = await api.userWith([]);
    const me = (await api.request(user.token, { method: 'GET', url: '/api/user/me/' })).json();
    expect(Object.keys(me).sort()).toEqual([...USER_FIELDS].sort());
  });

  it('answers a malformed body with the field errors of the shared schema', async () => {
    const response = await api.request(null, { method: 'POST', url: '/api/token/', payload: { email: 5 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      email: ['Field is required'],
      password: ['Field is required'],
    });
  });
});

/**
 * Every route, every input (OWASP ASVS L2): a property-based test walks every route of the OpenAPI
 * document and sends each path parameter, query parameter and body field arbitrary values, from
 * plausible ones to lone surrogates, 1e308, deep nesting and bodies that are not objects at all.
 * Whoever calls, nothing answers 5xx (bar a 502/503 the route declares) and every 4xx is in the
 * contract's shape; a caller without the permission changes nothing in the database; and after a
 * superuser's calls the database holds nothing the validation rules forbid. It runs on PGlite and
 * on PostgreSQL.
 *
 * `FUZZ_RUNS=2000 npx vitest run tests/server/routes.fuzz.test.ts` runs longer; `FUZZ_SEED=<seed>` replays
 * the seed a failure printed (see docs/security.md).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from '../../shared/constants';
import { PERMISSIONS } from '../../shared/permissions';
import { FILTER_ITEM_MAX, FILTER_ITEM_MIN, FILTER_MAX_ITEMS, TASKS, thresholdError } from '../../shared/rules';
import { CONTROL_CHARACTERS, EMAIL_PATTERN, PHONE_PATTERN } from '../../shared/validation';
import type { TestApi, TestUser } from '../support/api';
import { eachDatabase } from '../support/db';
import { type AllServicesApi, apiWithAllServices, seedAccount, seedRule } from './run/support';

/** Generated calls per route and caller; raise it for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
/** A walk of every route takes a few seconds per run on a quiet machine. */
const TIMEOUT = 60_000 + RUNS * 10_000;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/**
 * Tables a refused call may legitimately write: signing in (sessions and refresh tokens are issued
 * for each generated call), failed sign-ins and the attempt counters of throttled routes.
 */
const WEBHOOK_HOST = 'hooks.slack.com';
const WEBHOOK = `https://${WEBHOOK_HOST}/services/T0FUZZ/B0FUZZ/fuzzsecret`;
const BOOKKEEPING_TABLES = ['sessions', 'refresh_tokens', 'login_failures', 'rate_limit_counters'];

/** What a route open to everyone writes when it succeeds: a known address is sent a reset link. */
const OPEN_ROUTE_EFFECTS: Record<string, string[]> = {
  'POST /api/user/send_password_reset/': ['password_resets'],
};

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  $ref?: string;
}

interface Operation {
  parameters?: { name: string; in: string; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, unknown>;
}

interface Route {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: JsonSchema;
  takesBody: boolean;
  declared: Set<number>;
}

interface Call {
  url: string;
  payload?: string;
}

// ---------------------------------------------------------------- arbitrary values

const loneSurrogates = fc
  .array(fc.integer({ min: 0xd800, max: 0xdfff }), { minLength: 1, maxLength: 4 })
  .map((units) => `a${String.fromCharCode(...units)}b`);
const controlText = fc.string({
  unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
  maxLength: 12,
});
const longText = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u0000', ' ', '%'), fc.integer({ min: 150, max: 70_000 }))
  .map(([unit, n]) => unit.repeat(n));
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  controlText,
  loneSurrogates,
  longText,
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    'constructor',
    "'; drop table users; --",
    '%00',
    '../../etc/passwd',
    '{}',
    '[]',
  ),
);
const numberLikeText = fc.oneof(
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '-0', '1e308', '1e309', '0x10', '١٢٣', '1.5', ' 7 ', '+1', '0', '-1'),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);
const anyNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, -0, 0, 5e-324, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 53) - 2, 0.1),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const anyScalar = fc.oneof(anyText, numberLikeText, anyNumber, fc.boolean(), fc.constant(null));
const deeplyNested = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    anyScalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), anyText), tie('value'), { maxKeys: 4 }),
  ),
})).value;
const wildValue = fc.oneof({ weight: 6, arbitrary: anyJson }, { weight: 1, arbitrary: deeplyNested });

/** A value that fits the schema, mostly, with something wild in its place now and then. */
function fitting(schema: JsonSchema | undefined, plausible: Plausible, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: shaped(schema, plausible, depth) }, { weight: 1, arbitrary: wildValue });
}

interface Plausible {
  ids: string[];
  texts: string[];
  /** The seeded object a path most likely names, by the path's start: `/api/rule` → the rule. */
  idFor: (path: string) => string;
}

function shaped(schema: JsonSchema | undefined, plausible: Plausible, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return wildValue;
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants?.length) return fc.oneof(...variants.map((v) => shaped(v, plausible, depth + 1)));
  const nullable = (arb: fc.Arbitrary<unknown>) => (schema.nullable ? fc.option(arb, { nil: null }) : arb);
  if (schema.enum?.length) return nullable(fc.constantFrom(...schema.enum));
  switch (schema.type) {
    case 'string':
      return nullable(
        fc.oneof(
          fc.constantFrom(...plausible.texts),
          fc.constantFrom(...plausible.ids),
          // Plausible text with something hidden in it: what validation must catch.
          fc
            .tuple(fc.constantFrom(...plausible.texts), controlText, fc.constantFrom(...plausible.texts))
            .map((parts) => parts.join('')),
          anyText,
        ),
      );
    case 'integer':
    case 'number':
      return nullable(fc.oneof(fc.constantFrom(...plausible.ids.map(Number)), anyNumber));
    case 'boolean':
      return nullable(fc.boolean());
    case 'array':
      return nullable(fc.array(fitting(schema.items, plausible, depth + 1), { maxLength: 4 }));
    case 'object':
      return nullable(
        fc.record(
          Object.fromEntries(
            Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, fitting(sub, plausible, depth + 1)]),
          ),
          { requiredKeys: [] },
        ),
      );
    default:
      return wildValue;
  }
}

/** A value as text in a URL: JSON for what is not a string. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Percent-encodes any text, lone surrogates included (as the bytes a careless client would send). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

const rawSegment = fc.constantFrom('%', '%ZZ', '%E0%A4%A', '..', '%2F', '%00', '%2e%2e', ';', '?', '#');

function callOf(route: Route, plausible: Plausible): fc.Arbitrary<Call> {
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constant(plausible.idFor(route.path)) },
    { weight: 2, arbitrary: fc.constantFrom(...plausible.ids) },
    { weight: 3, arbitrary: fc.oneof(anyScalar, wildValue).map((v) => encode(asText(v))) },
    { weight: 1, arbitrary: rawSegment },
  );
  const pathArb = fc.tuple(...route.pathParams.map(() => segment)).map((segments) => {
    let i = 0;
    return route.path.replace(/\{[^}]+\}/g, () => segments[i++]!);
  });
  const queryValue = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...plausible.ids) },
    { weight: 3, arbitrary: fc.oneof(anyScalar, wildValue).map((v) => [encode(asText(v))]) },
    {
      weight: 1,
      arbitrary: fc.array(anyScalar, { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v) => encode(asText(v)))),
    },
    { weight: 1, arbitrary: rawSegment.map((s) => [s]) },
  );
  const queryArb = fc
    .record(Object.fromEntries(route.queryParams.map((name) => [name, queryValue])), { requiredKeys: [] })
    .map((query) =>
      Object.entries(query)
        .flatMap(([name, values]) => (Array.isArray(values) ? values : [values]).map((v) => `${name}=${v}`))
        .join('&'),
    );
  const fields = Object.entries(route.body?.properties ?? {});
  // One field alone: an update that names one field gets past the others' validation to the store.
  const oneField = fields.length
    ? fc.constantFrom(...fields).chain(([key, schema]) => fitting(schema, plausible).map((value) => ({ [key]: value })))
    : fc.constant({});
  const bodyArb: fc.Arbitrary<unknown> = route.takesBody
    ? fc.oneof(
        { weight: 3, arbitrary: shaped(route.body ?? { type: 'object' }, plausible, 0) },
        { weight: 2, arbitrary: oneField },
        { weight: 1, arbitrary: fc.oneof(wildValue, fc.array(anyJson, { maxLength: 3 }), anyText, anyNumber) },
      )
    : fc.constant(undefined);
  return fc.record({ path: pathArb, query: queryArb, body: bodyArb }).map(({ path, query, body }) => ({
    url: query ? `${path}?${query}` : path,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  }));
}

// ---------------------------------------------------------------- the contract's shapes

/** `{field: ["message"]}`, where a field may hold nested fields (rule_filter, rule_task). */
function isFieldErrors(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.keys(body).length) return false;
  return Object.values(body).every(
    (v) => (Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string')) || isFieldErrors(v),
  );
}

function contractProblem(route: Route, status: number, contentType: unknown, text: string): string | undefined {
  if (status >= 500 && !(route.declared.has(status) && (status === 502 || status === 503))) return `answered ${status}`;
  if (status < 400) return undefined;
  if (!String(contentType).startsWith('application/json')) return `answered ${status} as ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  // `{detail}`; a refused token adds `code: "token_not_valid"` (docs/api.md).
  const { detail, code, ...rest } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const detailOnly =
    typeof detail === 'string' && (code === undefined || typeof code === 'string') && !Object.keys(rest).length;
  return detailOnly || isFieldErrors(body) ? undefined : `answered ${status} in no contract shape`;
}

// ---------------------------------------------------------------- the suite

eachDatabase((engine) => {
  describe(`every route, every input on ${engine}`, () => {
    let api: TestApi;
    let server: AllServicesApi;
    let superuser: TestUser;
    let nobody: TestUser;
    let routes: Route[];
    let plausible: Plausible;
    let tables: string[];

    beforeAll(async () => {
      // A real server's services: the ad platform (simulator), campaign sync, rule engine, mail.
      server = await apiWithAllServices(`ad-rules-fuzz-${engine}-`, engine);
      api = server.api;
      superuser = await api.userWith('superuser');
      nobody = await api.userWith([]);
      // Objects for the generated ids to find, so calls get past "not found" into the real work.
      await seedAccount(api.dbh.db, server.home);
      const seeded = await seedRule(api.dbh.db, server.home.adAccountId, {
        contains: ['SS-W'],
        tasks: { spend_cpl_no_leads: { spend: '40' } },
      });
      const group = await api.newGroup('Editors', ['read_rules']);
      const other = await api.userWith(['read_rules']);
      // An alert destination (a resource defined in one file), created as the screens do.
      const destination = await api.request(superuser.token, {
        method: 'POST',
        url: '/api/alert_destinations/',
        payload: { name: 'Ops channel', url: WEBHOOK, is_active: true, folder_id: seeded.folder.id },
      });
      expect(destination.statusCode, destination.body).toBe(201);
      const likely: [string, number][] = [
        ['/api/alert_destinations', destination.json().id],
        ['/api/rule', seeded.rule.id],
        ['/api/folders', seeded.folder.id],
        ['/api/general_page', seeded.folder.id],
        ['/api/groups', group.id],
        ['/api/user', other.id],
      ];
      plausible = {
        idFor: (p) => String(likely.find(([prefix]) => p.startsWith(prefix))?.[1] ?? seeded.rule.id),
        ids: [...new Set([seeded.folder.id, seeded.rule.id, group.id, other.id].map(String))],
        texts: [
          'Fuzzed name',
          'fuzz@example.com',
          other.email,
          'SS-W',
          '40',
          'America/New_York',
          'read_rules',
          'correct-horse-1',
          server.home.adAccountId,
          WEBHOOK,
          // Impact report scopes and spans, backtest spans.
          'agency',
          'folder',
          'rule',
          '7',
          '30',
        ],
      };

      const document = (await api.request(null, { method: 'GET', url: '/api/schema/' })).json() as {
        paths: Record<string, Record<string, Operation>>;
        components?: { schemas?: Record<string, JsonSchema> };
      };
      const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined =>
        schema?.$ref ? resolve(document.components?.schemas?.[schema.$ref.split('/').pop()!]) : schema;
      routes = Object.entries(document.paths)
        .filter(([p]) => p.startsWith('/api/'))
        .flatMap(([p, methods]) =>
          Object.entries(methods).map(([method, op]) => ({
            method: method.toUpperCase(),
            path: p,
            pathParams: (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name),
            queryParams: (op.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name),
            body: resolve(op.requestBody?.content['application/json']?.schema),
            takesBody: method !== 'get' && method !== 'delete',
            declared: new Set(Object.keys(op.responses).map(Number)),
          })),
        )
        .filter((r) => r.method !== 'HEAD');

      const rows = await api.dbh.sql.query<{ tablename: string }>(
        `select tablename from pg_tables where schemaname = 'public' order by tablename`,
      );
      tables = rows.rows.map((r) => r.tablename).filter((t) => !BOOKKEEPING_TABLES.includes(t));
    });
    afterAll(() => server.close());

    /** Row count and a hash of every row of every table a refused call must leave alone. */
    async function snapshot(): Promise<Record<string, string>> {
      const query = tables
        .map(
          (t) =>
            `select '${t}' as name, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as state from "${t}" x`,
        )
        .join(' union all ');
      const result = await api.dbh.sql.query<{ name: string; state: string }>(query);
      return Object.fromEntries(result.rows.map((r) => [r.name, r.state]));
    }

    /** Runs `check` on generated calls to every route, naming the route, the seed and the call on failure. */
    async function walk(caller: TestUser | null, check: (route: Route, call: Call) => Promise<void>) {
      const failures: string[] = [];
      for (const route of routes) {
        const details = fc.check(
          fc.asyncProperty(callOf(route, plausible), async (call) => {
            await check(route, call);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        const result = await details;
        if (result.failed) {
          const call = result.counterexample?.[0] as Call | undefined;
          failures.push(
            `${route.method} ${route.path} as ${caller ? `user ${caller.id}` : 'nobody signed in'} ` +
              `(seed ${result.seed}, path "${result.counterexamplePath}"): ${String(result.errorInstance).slice(0, 400)}\n` +
              `  url ${call?.url.slice(0, 300)}\n  body ${call?.payload?.slice(0, 300)}`,
          );
        }
      }
      expect(failures, failures.join('\n')).toEqual([]);
    }

    async function send(caller: TestUser | null, route: Route, call: Call) {
      const token = caller ? (await api.app.tokens.issue(caller.id)).access : null;
      return api.request(token, {
        method: route.method as 'GET',
        url: call.url,
        ...(call.payload === undefined
          ? {}
          : { payload: call.payload, headers: { 'content-type': 'application/json' } }),
      });
    }

    it('reads the routes and their inputs from the OpenAPI document', () => {
      expect(routes.length).toBeGreaterThan(40);
      expect(routes.find((r) => r.method === 'PATCH' && r.path === '/api/rule/{id}/')?.body?.properties).toHaveProperty(
        'rule_task',
      );
    });

    for (const who of ['nobody signed in', 'a signed-in user without permissions'] as const) {
      it(`changes nothing and answers in the contract's shape for ${who}`, { timeout: TIMEOUT }, async () => {
        const caller = who === 'nobody signed in' ? null : nobody;
        await walk(caller, async (route, call) => {
          const before = await snapshot();
          const response = await send(caller, route, call);
          const problem = contractProblem(route, response.statusCode, response.headers['content-type'], response.body);
          if (problem) throw new Error(`${problem}: ${response.body.slice(0, 300)}`);
          const after = await snapshot();
          const allowed = response.statusCode < 300 ? (OPEN_ROUTE_EFFECTS[`${route.method} ${route.path}`] ?? []) : [];
          const changed = Object.keys(before).filter((t) => before[t] !== after[t] && !allowed.includes(t));
          if (changed.length) throw new Error(`answered ${response.statusCode} and changed ${changed.join(', ')}`);
        });
      });
    }

    it("answers a superuser's every call without a 5xx and in the contract's shape", { timeout: TIMEOUT }, async () => {
      await walk(superuser, async (route, call) => {
        const response = await send(superuser, route, call);
        const problem = contractProblem(route, response.statusCode, response.headers['content-type'], response.body);
        if (problem) throw new Error(`${problem}: ${response.body.slice(0, 300)}`);
        // Checked after every accepted call: a later call may overwrite what an earlier one stored.
        const stored = response.statusCode < 300 ? await forbiddenRows() : [];
        if (stored.length) throw new Error(`answered ${response.statusCode} and stored ${stored.join('; ')}`);
      });
    });

    it('holds nothing afterwards that the validation rules forbid', async () => {
      expect(await forbiddenRows()).toEqual([]);
    });

    /** Rows the validation rules forbid: what no call should ever have stored. */
    async function forbiddenRows(): Promise<string[]> {
      const problems: string[] = [];
      const query = async <T>(text: string) => (await api.dbh.sql.query<T>(text)).rows;
      const badText = (value: string, max: number) =>
        value.trim() === '' || value.length > max || CONTROL_CHARACTERS.test(value);

      for (const u of await query<{ id: number; email: string; first_name: string; last_name: string; phone: string }>(
        'select id, email, first_name, last_name, phone from users',
      )) {
        if (u.email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(u.email))
          problems.push(`user ${u.id} e-mail ${JSON.stringify(u.email)}`);
        if (badText(u.first_name, MAX_NAME_LENGTH) || badText(u.last_name, MAX_NAME_LENGTH))
          problems.push(`user ${u.id} name ${JSON.stringify([u.first_name, u.last_name])}`);
        if (u.phone !== '' && !PHONE_PATTERN.test(u.phone))
          problems.push(`user ${u.id} phone ${JSON.stringify(u.phone)}`);
      }
      for (const g of await query<{ id: number; name: string; accesses: string[] }>(
        'select id, name, accesses from groups',
      )) {
        if (badText(g.name, 150)) problems.push(`group ${g.id} name ${JSON.stringify(g.name)}`);
        const unknown = g.accesses.filter((a) => !(PERMISSIONS as readonly string[]).includes(a));
        if (unknown.length) problems.push(`group ${g.id} permissions ${JSON.stringify(unknown)}`);
      }
      for (const d of await query<{ id: number; name: string; url: string }>(
        'select id, name, url from alert_destinations',
      )) {
        if (badText(d.name, 100))
          problems.push(`alert destination ${d.id} name ${JSON.stringify(d.name.slice(0, 80))}`);
        if (d.url.includes(WEBHOOK_HOST)) problems.push(`alert destination ${d.id} webhook stored in clear`);
      }
      for (const f of await query<{ id: number; name: string }>('select id, name from folders')) {
        if (badText(f.name, 200)) problems.push(`folder ${f.id} name ${JSON.stringify(f.name.slice(0, 80))}…`);
      }
      for (const r of await query<{ id: number; name: string }>('select id, name from rules')) {
        if (badText(r.name, 200)) problems.push(`rule ${r.id} name ${JSON.stringify(r.name.slice(0, 80))}…`);
      }
      for (const item of await query<{ rule_id: number; type: string; name: string; values: unknown }>(
        'select rule_id, type, name, values from rule_items',
      )) {
        const where = `rule ${item.rule_id} ${item.name} ${JSON.stringify(item.values).slice(0, 120)}`;
        if (item.type === 'rule_filter') {
          const names = item.values;
          if (
            !Array.isArray(names) ||
            names.length > FILTER_MAX_ITEMS ||
            names.some(
              (n) => typeof n !== 'string' || n.trim().length < FILTER_ITEM_MIN || n.trim().length > FILTER_ITEM_MAX,
            )
          )
            problems.push(where);
        } else if (item.type === 'rule_task') {
          const spec = TASKS.find((t) => t.name === item.name);
          const values = item.values as Record<string, unknown>;
          if (!spec || typeof values !== 'object' || values === null || Array.isArray(values)) {
            problems.push(where);
            continue;
          }
          for (const { key } of spec.values) {
            const raw = values[key];
            if (raw === '' || raw === undefined) continue;
            const n = Number(raw);
            if (typeof raw !== 'string' || !Number.isFinite(n) || thresholdError(key, n)) problems.push(where);
          }
        } else problems.push(`rule ${item.rule_id} item of type ${item.type}`);
      }
      return problems;
    }
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../src/providers/apiPaths';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { pageEndpoints } from '../../../src/custom-pages/endpoints';
import { createHttpClient } from '../../../src/providers/httpClient';
import { createSessionStore } from '../../../src/providers/session';
import type { ResourceEndpoint } from '../../../shared/resourceEndpoint';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { fakeJwt } from '../../support/tokens';

const server = setupMswServer();

const endpoints: Record<string, ResourceEndpoint> = {
  log: {
    path: 'log/',
    filters: { rule_id: 'rule_id_in', folder_id: 'folder_id_in' },
    ordering: { ad_account: 'folder_name' },
  },
  groups: { path: 'groups/' },
  campaigns: { path: 'campaigns/', idField: 'campaign_id' },
};

let provider: ReturnType<typeof createDataProvider>;

beforeEach(() => {
  const session = createSessionStore(localStorage);
  session.update({ access_token: fakeJwt(300), refresh_token: 'r1' });
  provider = createDataProvider({
    endpoints: { ...pageEndpoints, ...endpoints },
    http: createHttpClient({ session, onLoginScreen: () => false }).request,
  });
});

/** Answers a list and records the query it was asked with. */
function listServer(path: string, results: unknown[], count = results.length) {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get(path, ({ request }) => {
      queries.push(Object.fromEntries(new URL(request.url).searchParams));
      return HttpResponse.json({ count, next: null, previous: null, results });
    }),
  );
  return queries;
}

describe('getList', () => {
  it('maps pagination, multi-column sort with aliases, search and renamed filters onto the contract', async () => {
    const queries = listServer(paths.log, [{ id: 1, action: 'Rule updated' }], 42);
    const result = await provider.getList('log', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'timestamp,ad_account', order: 'DESC,ASC' as 'ASC' },
      filter: { q: 'acme', rule_id: ['5', '6'], folder_id: '2', empty: '' },
    });
    expect(queries).toEqual([
      {
        limit: '20',
        offset: '40',
        ordering: '-timestamp,folder_name',
        search: 'acme',
        rule_id_in: '5,6',
        folder_id_in: '2',
      },
    ]);
    expect(result).toEqual({ data: [{ id: 1, action: 'Rule updated' }], total: 42 });
  });

  it('turns an estimated total into partial pagination with the estimate in meta', async () => {
    server.use(
      http.get(paths.log, () =>
        HttpResponse.json({
          count: 10000,
          count_is_estimate: true,
          count_is_lower_bound: true,
          next: 'http://localhost/api/log/?limit=10&offset=20',
          previous: 'http://localhost/api/log/?limit=10',
          results: [{ id: 7, action: 'Rule updated' }],
        }),
      ),
    );
    const page = {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'timestamp', order: 'DESC' as const },
      filter: {},
    };
    expect(await provider.getList('log', page)).toEqual({
      data: [{ id: 7, action: 'Rule updated' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: true },
      meta: { totalEstimate: { count: 10000, atLeast: true } },
    });

    // The planner's estimate: "about", not "at least".
    server.use(
      http.get(paths.log, () =>
        HttpResponse.json({
          count: 52_345,
          count_is_estimate: true,
          count_is_lower_bound: false,
          next: 'http://localhost/api/log/?limit=10&offset=20',
          previous: null,
          results: [],
        }),
      ),
    );
    expect((await provider.getList('log', page)).meta).toEqual({ totalEstimate: { count: 52_345, atLeast: false } });

    // An exact count on a capped list (under the cap, or its last page) is a plain total.
    server.use(
      http.get(paths.log, () =>
        HttpResponse.json({ count: 12, count_is_estimate: false, next: null, previous: null, results: [] }),
      ),
    );
    expect(await provider.getList('log', page)).toEqual({ data: [], total: 12 });
  });

  it('uses the declared id field when records have no id', async () => {
    listServer(paths.campaigns, [{ campaign_id: '120', campaign_name: 'EP-W' }]);
    const result = await provider.getList('campaigns', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'campaign_id', order: 'DESC' },
      filter: {},
    });
    expect(result.data).toEqual([{ id: '120', campaign_id: '120', campaign_name: 'EP-W' }]);
  });

  it('getManyReference filters by the target', async () => {
    const queries = listServer(paths.log, []);
    await provider.getManyReference('log', {
      target: 'rule_id',
      id: 9,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'timestamp', order: 'ASC' },
      filter: {},
    });
    expect(queries[0]).toMatchObject({ rule_id_in: '9', ordering: 'timestamp' });
  });

  it('names the missing resource folder for an unknown resource', async () => {
    await expect(
      provider.getList('nope', {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toThrow(/src\/resources\/nope/);
  });
});

describe('records', () => {
  it('getOne and getMany read /api/<path>/<id>/', async () => {
    server.use(
      http.get(`${paths.groups}:id/`, ({ params }) =>
        HttpResponse.json({ id: Number(params.id), name: `G${params.id}` }),
      ),
    );
    await expect(provider.getOne('groups', { id: 4 })).resolves.toEqual({ data: { id: 4, name: 'G4' } });
    await expect(provider.getMany('groups', { ids: [1, 2] })).resolves.toEqual({
      data: [
        { id: 1, name: 'G1' },
        { id: 2, name: 'G2' },
      ],
    });
  });

  it('update sends a PATCH with only the changed fields', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.patch(paths.group(3), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ id: 3, name: 'Editors', group_access: { accesses: ['read_rules', 'view_logs'] } });
      }),
    );
    const previousData = { id: 3, name: 'Editors', group_access: { accesses: ['read_rules'] } };
    const result = await provider.update('groups', {
      id: 3,
      data: { ...previousData, group_access: { accesses: ['read_rules', 'view_logs'] } },
      previousData,
    });
    expect(bodies).toEqual([{ group_access: { accesses: ['read_rules', 'view_logs'] } }]);
    expect(result.data.group_access.accesses).toEqual(['read_rules', 'view_logs']);
  });

  it('create POSTs the record and delete DELETEs it', async () => {
    const calls: string[] = [];
    server.use(
      http.post(paths.groups, async ({ request }) => {
        calls.push(`POST ${JSON.stringify(await request.json())}`);
        return HttpResponse.json({ id: 11, name: 'New group', group_access: { accesses: [] } }, { status: 201 });
      }),
      http.delete(paths.group(11), () => {
        calls.push('DELETE 11');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const created = await provider.create('groups', { data: { name: 'New group', group_access: { accesses: [] } } });
    expect(created.data).toMatchObject({ id: 11, name: 'New group' });
    const deleted = await provider.delete('groups', { id: 11, previousData: created.data });
    expect(deleted.data).toMatchObject({ id: 11 });
    expect(calls).toEqual(['POST {"name":"New group","group_access":{"accesses":[]}}', 'DELETE 11']);
  });

  it('keeps only the answer of a create whose endpoint says so: a secret sent is not kept beside it', async () => {
    server.use(http.post('/api/secrets/', () => HttpResponse.json({ id: 5, name: 'Northwind' }, { status: 201 })));
    const secrets = createDataProvider({
      endpoints: { secrets: { path: 'secrets/', create: { path: 'secrets/', answerOnly: true } } },
      http: createHttpClient({ session: createSessionStore(localStorage), onLoginScreen: () => false }).request,
    });
    const created = await secrets.create('secrets', { data: { name: '', token: 'EAAsecret' } });
    expect(created.data).toEqual({ id: 5, name: 'Northwind' });
  });

  it('passes server validation errors to react-admin forms', async () => {
    server.use(http.post(paths.groups, () => HttpResponse.json({ name: ['Field is required'] }, { status: 400 })));
    await expect(provider.create('groups', { data: { name: '' } })).rejects.toMatchObject({
      status: 400,
      body: { errors: { name: 'Field is required' } },
    });
  });
});

describe('the folder, rule, trash and engine methods', () => {
  /** Records every call as 'METHOD /path?query body' and answers `answer`. */
  function recordCalls(answer: (url: URL) => unknown = () => ({})) {
    const calls: string[] = [];
    server.use(
      http.all('/api/*', async ({ request }) => {
        const url = new URL(request.url);
        const body = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
        calls.push(`${request.method} ${url.pathname}${url.search}${body ? ` ${body}` : ''}`.trim());
        const json = answer(url);
        return json === null ? new HttpResponse(null, { status: 204 }) : HttpResponse.json(json);
      }),
    );
    return calls;
  }

  it('pages folders oldest first and the trash in the order asked, by offset, with the search', async () => {
    const page = { count: 31, next: 'next', previous: null, results: [{ id: 1 }] };
    const calls = recordCalls(() => page);
    await expect(provider.getFolderPage({ search: 'acme', limit: 20, offset: 19 })).resolves.toEqual(page);
    await provider.getFolderPage({ limit: 20, offset: 0 });
    await provider.getTrashPage({ search: '', limit: 10, offset: 10, ordering: '-trashed_at' });
    expect(calls).toEqual([
      'GET /api/general_page/?limit=20&offset=19&ordering=created_at&search=acme',
      'GET /api/general_page/?limit=20&offset=0&ordering=created_at',
      'GET /api/trash_page/?limit=10&offset=10&ordering=-trashed_at',
    ]);
  });

  it('sends each folder and rule action to its path in the contract', async () => {
    const calls = recordCalls((url) => (url.pathname.endsWith('/5/') && !url.pathname.includes('rule/') ? null : {}));
    await provider.moveFolderToTrash(3);
    await provider.restoreFolder(3);
    await provider.duplicateRule(5);
    await provider.moveRuleToTrash(5);
    await provider.restoreRule(5);
    await provider.deleteRuleForever(5);
    await provider.setRuleActive(5, true);
    await provider.saveRule(5, { name: 'Renamed' });
    await provider.updateFolder(3, {
      client_type: 'EDM',
      plan: 'solo',
      meta_ad_account_id: 'act_1',
      name: 'Acme',
      extension: { external_credentials: { demio: null } },
    });
    expect(calls).toEqual([
      'POST /api/folders/3/move_to_trash/',
      'POST /api/folders/3/restore/',
      'POST /api/rules/5/duplicate_rule/',
      'POST /api/rules/5/move_to_trash/',
      'POST /api/rules/5/restore/ {"is_deleted":false}',
      'DELETE /api/rules/5/',
      'PATCH /api/rule/5/ {"is_active":true}',
      'PATCH /api/rule/5/ {"name":"Renamed"}',
      'PATCH /api/general_page/3/ {"client_type":"EDM","plan":"solo","meta_ad_account_id":"act_1","name":"Acme","extension":{"external_credentials":{"demio":null}}}',
    ]);
  });

  it('serves general_page, rule and trash_page through getOne, create and delete, on the paths ending in /', async () => {
    const calls = recordCalls((url) => {
      if (url.pathname === '/api/trash_page/4/') return null;
      return url.pathname === '/api/rule/' ? { id: 12, name: 'New rule' } : { id: 4, name: 'Acme' };
    });
    await expect(provider.getOne('general_page', { id: 4 })).resolves.toEqual({ data: { id: 4, name: 'Acme' } });
    await provider.getOne('rule', { id: 4 });
    const created = await provider.create('rule', { data: { folder: 4 } });
    expect(created.data).toMatchObject({ id: 12, name: 'New rule', folder: 4 });
    await provider.delete('trash_page', { id: 4, previousData: { id: 4 } });
    expect(calls).toEqual([
      'GET /api/general_page/4/',
      'GET /api/rule/4/',
      'POST /api/rule/ {"folder":4}',
      'DELETE /api/trash_page/4/',
    ]);
  });

  it('reads time zones, and ad accounts from a page or a bare list; refreshes them from the ad platform', async () => {
    const accounts = [{ ad_account_id: 'act_1', account_name: 'Acme Ads' }];
    let bare = false;
    const calls = recordCalls((url) => {
      if (url.pathname === '/api/rule/get_timezones/') return [{ title: 'UTC', value: 'UTC' }];
      if (url.pathname === '/api/meta_ad_account/refresh/')
        return { count: 1, next: null, previous: null, results: [] };
      return bare ? accounts : { count: 1, next: null, previous: null, results: accounts };
    });
    await expect(provider.getTimezones()).resolves.toEqual([{ title: 'UTC', value: 'UTC' }]);
    await expect(provider.getAdAccounts()).resolves.toEqual(accounts);
    bare = true;
    await expect(provider.getAdAccounts()).resolves.toEqual(accounts);
    await expect(provider.refreshAdAccounts()).resolves.toBeUndefined();
    expect(calls).toEqual([
      'GET /api/rule/get_timezones/',
      'GET /api/meta_ad_account/?limit=400',
      'GET /api/meta_ad_account/?limit=400',
      'GET /api/meta_ad_account/refresh/',
    ]);
  });

  it("calls the rule engine: preview, run now, undo and an exemption's removal", async () => {
    const calls = recordCalls((url) => (url.pathname.includes('exemptions') ? null : { status: 'done' }));
    await expect(provider.previewRule(5)).resolves.toEqual({ status: 'done' });
    await expect(provider.runRuleNow(5)).resolves.toEqual({ status: 'done' });
    await provider.undoRuleAction(21);
    await provider.removeRuleExemption(5, '120001');
    expect(calls).toEqual([
      'GET /api/rules/5/preview/',
      'POST /api/rules/5/run_now/',
      'POST /api/rule_log/21/undo/',
      'DELETE /api/rules/5/exemptions/120001/',
    ]);
  });

  it('rejects with the server error, for the screens to show', async () => {
    server.use(
      http.post(paths.folderRestore(3), () =>
        HttpResponse.json({ detail: 'The ad account is already used by another folder.' }, { status: 400 }),
      ),
    );
    await expect(provider.restoreFolder(3)).rejects.toMatchObject({
      status: 400,
      message: 'The ad account is already used by another folder.',
    });
  });
});

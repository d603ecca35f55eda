import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../src/providers/apiPaths';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { createHttpClient } from '../../../src/providers/httpClient';
import { createSessionStore } from '../../../src/providers/session';
import type { ResourceEndpoint } from '../../../src/resources/types';
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
  provider = createDataProvider({ endpoints, http: createHttpClient({ session, onLoginScreen: () => false }).request });
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
  it('getOne and getMany read /api/<path>/<id>', async () => {
    server.use(
      http.get(`${paths.groups}:id`, ({ params }) =>
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

  it('passes server validation errors to react-admin forms', async () => {
    server.use(http.post(paths.groups, () => HttpResponse.json({ name: ['Field is required'] }, { status: 400 })));
    await expect(provider.create('groups', { data: { name: '' } })).rejects.toMatchObject({
      status: 400,
      body: { errors: { name: 'Field is required' } },
    });
  });
});

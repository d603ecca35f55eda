/**
 * react-admin dataProvider onto the contract (docs/contract.md#conventions): DRF-style limit/offset/ordering/search
 * lists answering `{count, results}`, PATCH with the changed fields only. Endpoints come from the
 * resource registry, so a new resource needs no edit here. Every call is the contract's own (docs/decisions.md: why not
 * ra-data-simple-rest). Calls outside CRUD are named, typed methods: ruleMethods.ts (folders, rules,
 * trash, the engine), peopleMethods.ts (team, groups, invitations, passwords), campaignMethods.ts.
 */
import type { DataProvider, GetManyParams, Identifier, RaRecord } from 'react-admin';
import { apiUrl, paths } from './apiPaths';
import { rejectingWithAbortReason } from './cancellation';
import { httpClient as defaultHttpClient, type HttpClient } from './httpClient';
import { changedFields, toFilterParams, toListQuery } from './listQuery';
import { createAdMethods } from './adMethods';
import { createAlertMethods } from './alertMethods';
import { createCampaignMethods } from './campaignMethods';
import { createLeadOutcomeMethods } from './leadOutcomeMethods';
import { createPeopleMethods } from './peopleMethods';
import { createRuleMethods } from './ruleMethods';
import { createRuleScopeMethods } from './ruleScopeMethods';
import { createTemplateMethods } from './templateMethods';
import type { ResourceEndpoint } from '../../shared/resourceEndpoint';

export interface Page<T> {
  count: number;
  /** Big lists: `count` is not exact — the planner's estimate, or a lower bound (count_is_lower_bound). */
  count_is_estimate?: boolean;
  count_is_lower_bound?: boolean;
  next?: string | null;
  previous?: string | null;
  results: T[];
}

/** A total the server only estimated: about `count`, or at least `count` (CappedPagination's label). */
export interface TotalEstimate {
  count: number;
  atLeast: boolean;
}

/** A page for react-admin: an exact `total`, or partial pagination with the estimate in `meta`. */
interface ListPage<R> {
  data: R[];
  total?: number;
  pageInfo?: { hasNextPage: boolean; hasPreviousPage: boolean };
  meta?: { totalEstimate: TotalEstimate };
}

export interface DataProviderDeps {
  endpoints: Record<string, ResourceEndpoint>;
  http?: HttpClient;
}

export function createDataProvider({ endpoints, http: client = defaultHttpClient }: DataProviderDeps) {
  // Every call below, ruleMethods' too: a call react-query cancelled rejects as a cancellation.
  const http = rejectingWithAbortReason(client);
  const endpoint = (resource: string): ResourceEndpoint => {
    const found = endpoints[resource];
    if (!found) throw new Error(`Unknown resource '${resource}': add src/resources/${resource}/index.ts`);
    return found;
  };
  const listUrl = (resource: string) => apiUrl(endpoint(resource).path);
  const itemUrl = (resource: string, id: Identifier) =>
    `${listUrl(resource).replace(/\/?$/, '/')}${encodeURIComponent(String(id))}/`;
  // react-admin's methods are generic in the record type; the server's JSON is what it is.
  const withId = <R extends RaRecord>(resource: string, record: unknown): R => {
    const idField = endpoint(resource).idField;
    if (!idField || !record || typeof record !== 'object') return record as R;
    return { ...record, id: (record as Record<string, unknown>)[idField] } as R;
  };

  const fetchPage = async <R extends RaRecord>(
    resource: string,
    params: Parameters<typeof toListQuery>[1],
    signal?: AbortSignal,
  ): Promise<ListPage<R>> => {
    const query = toListQuery(endpoint(resource), params);
    const { json } = await http<Page<RaRecord>>(`${listUrl(resource)}?${query}`, { signal });
    if (Array.isArray(json)) return { data: json.map((r) => withId<R>(resource, r)), total: json.length };
    const data = json.results.map((r) => withId<R>(resource, r));
    if (!json.count_is_estimate) return { data, total: json.count };
    // An estimated total: react-admin's partial pagination pages on by the server's links, and
    // the estimate travels in meta for the "of about 52,000" / "of 1,000+" label (CappedPagination).
    return {
      data,
      pageInfo: { hasNextPage: Boolean(json.next), hasPreviousPage: Boolean(json.previous) },
      meta: { totalEstimate: { count: json.count, atLeast: Boolean(json.count_is_lower_bound) } },
    };
  };

  const getOne = async <R extends RaRecord>(
    resource: string,
    params: { id: Identifier; signal?: AbortSignal; meta?: unknown },
  ): Promise<{ data: R }> => {
    const { json } = await http(itemUrl(resource, params.id), { signal: params.signal });
    return { data: withId<R>(resource, json) };
  };

  const provider = {
    getList: (resource, params) => fetchPage(resource, params, params.signal),

    getOne,

    getMany: async <RecordType extends RaRecord>(resource: string, params: GetManyParams<RecordType>) => {
      const getRecord = async (id: Identifier) =>
        (await getOne<RecordType>(resource, { id, signal: params.signal })).data;
      return { data: await Promise.all(params.ids.map(getRecord)) };
    },

    getManyReference: (resource, params) =>
      fetchPage(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }, params.signal),

    // Not simple-rest's create: it POSTs to /api/<path> without the trailing slash docs/contract.md#calls writes.
    create: async (resource, params) => {
      const { create } = endpoint(resource);
      const url = create ? apiUrl(create.path) : listUrl(resource);
      const { json } = await http<Record<string, unknown>>(url, { method: 'POST', body: params.data });
      const created = create?.recordIn
        ? json[create.recordIn]
        : create?.answerOnly
          ? json
          : { ...params.data, ...json };
      return { data: withId(resource, created) };
    },

    update: async (resource, params) => {
      const body = changedFields(params.data, params.previousData);
      const { json } = await http(itemUrl(resource, params.id), { method: 'PATCH', body });
      const data = json && typeof json === 'object' ? json : { ...params.previousData, ...params.data };
      return { data: withId(resource, { id: params.id, ...data }) };
    },

    updateMany: async (resource, params) => {
      await Promise.all(params.ids.map((id) => http(itemUrl(resource, id), { method: 'PATCH', body: params.data })));
      return { data: params.ids };
    },

    delete: async (resource, params) => {
      await http(itemUrl(resource, params.id), { method: 'DELETE' });
      return { data: params.previousData ?? withId(resource, { id: params.id }) };
    },

    deleteMany: async (resource, params) => {
      await Promise.all(params.ids.map((id) => http(itemUrl(resource, id), { method: 'DELETE' })));
      return { data: params.ids };
    },

    // Calls outside CRUD (docs/contract.md#calls), for screens through useDataProvider<AppDataProvider>().
    /** Query string of filters as the contract spells them, for links and custom lists. */
    filterQuery: (resource: string, filter: Record<string, unknown>) =>
      new URLSearchParams(toFilterParams(filter, endpoint(resource).filters)).toString(),
    /** The rows of a list (`path` under /api/, up to 1,000), for a reference field's choices. */
    optionsOf: async (path: string, options?: { signal?: AbortSignal }) =>
      (await http<{ results: Record<string, unknown>[] }>(`${apiUrl(path)}?limit=1000`, options)).json.results,
    paths,
    ...createRuleMethods(http),
    ...createPeopleMethods(http),
    ...createCampaignMethods(http),
    ...createAlertMethods(http),
    ...createAdMethods(http),
    ...createLeadOutcomeMethods(http),
    ...createRuleScopeMethods(http),
    ...createTemplateMethods(http),
  } satisfies DataProvider & Record<string, unknown>;

  return provider;
}

/** The app's dataProvider with its named methods: `useDataProvider<AppDataProvider>().restoreFolder(5)`. */
export type AppDataProvider = ReturnType<typeof createDataProvider>;

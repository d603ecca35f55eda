/**
 * react-admin list parameters → the contract's query (docs/contract.md#conventions): limit/offset, `ordering=a,-b`,
 * `search`, and filters renamed by the resource's map with lists comma-joined.
 */
import type { SortPayload } from 'react-admin';
import type { ResourceEndpoint } from '../../shared/resourceEndpoint';

/**
 * `{field: 'timestamp,ad_account', order: 'DESC,ASC'}` → '-timestamp,folder_name'.
 * The sort field may be a comma list (multi-column sort); `order` gives one direction per field
 * (the last one repeats), and a field written '-name' flips its direction.
 */
export function toOrdering(sort: SortPayload | undefined, aliases: Record<string, string> = {}): string | undefined {
  if (!sort?.field) return undefined;
  const fields = sort.field
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const orders = String(sort.order ?? 'ASC')
    .split(',')
    .map((o) => o.trim().toUpperCase());
  const terms = fields.map((raw, index) => {
    const flipped = raw.startsWith('-');
    const field = flipped ? raw.slice(1) : raw;
    const descending = (orders[Math.min(index, orders.length - 1)] === 'DESC') !== flipped;
    return `${descending ? '-' : ''}${aliases[field] ?? field}`;
  });
  return terms.length ? terms.join(',') : undefined;
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

export function toFilterParams(
  filter: Record<string, unknown> = {},
  names: Record<string, string> = {},
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (isEmpty(value)) continue;
    const name = key === 'q' ? 'search' : (names[key] ?? key);
    params[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return params;
}

export interface ListParams {
  pagination?: { page: number; perPage: number };
  sort?: SortPayload;
  filter?: Record<string, unknown>;
}

export function toListQuery(endpoint: ResourceEndpoint, { pagination, sort, filter }: ListParams): URLSearchParams {
  const query = new URLSearchParams();
  if (pagination) {
    query.set('limit', String(pagination.perPage));
    query.set('offset', String((pagination.page - 1) * pagination.perPage));
  }
  const ordering = toOrdering(sort, endpoint.ordering);
  if (ordering) query.set('ordering', ordering);
  for (const [name, value] of Object.entries(toFilterParams(filter, endpoint.filters))) query.set(name, value);
  return query;
}

/** The fields of `data` that differ from `previous` (deep, by value). */
export function changedFields(
  data: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!previous) return data;
  return Object.fromEntries(
    Object.entries(data).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(previous[key])),
  );
}

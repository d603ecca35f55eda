/**
 * Multi-column sort in react-admin's single SortPayload: the field is a comma list and the order
 * one direction per field ('timestamp,rule_name' / 'DESC,ASC'); the dataProvider turns it into
 * `ordering=-timestamp,rule_name`.
 */
import type { SortPayload } from 'react-admin';

export interface SortTerm {
  field: string;
  order: 'ASC' | 'DESC';
}

export function parseSort(sort: SortPayload | undefined): SortTerm[] {
  if (!sort?.field) return [];
  const orders = String(sort.order ?? 'ASC').split(',');
  return sort.field
    .split(',')
    .filter(Boolean)
    .map((field, index) => ({
      field,
      order: (orders[Math.min(index, orders.length - 1)] ?? 'ASC').trim().toUpperCase() === 'DESC' ? 'DESC' : 'ASC',
    }));
}

export function formatSort(terms: SortTerm[]): SortPayload {
  return {
    field: terms.map((t) => t.field).join(','),
    order: terms.map((t) => t.order).join(',') as SortPayload['order'],
  };
}

/** A click on a column: not sorted → ascending (added last), ascending → descending, descending → not sorted. */
export function toggleSort(terms: SortTerm[], field: string): SortTerm[] {
  const current = terms.find((t) => t.field === field);
  if (!current) return [...terms, { field, order: 'ASC' }];
  if (current.order === 'ASC') return terms.map((t) => (t.field === field ? { field, order: 'DESC' } : t));
  return terms.filter((t) => t.field !== field);
}

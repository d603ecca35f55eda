/**
 * Graph's `filtering` parameter on list edges: `[{field: 'campaign.id', operator: 'IN', value: [...]}]`,
 * every entry ANDed. Each edge says which fields it can filter on and how to read them off an
 * object; the operators are Graph's. Operators Graph has that the simulator does not model are
 * refused by name, never ignored.
 */
import { errorAnswer, type GraphAnswer } from './answers';

/** How a filter field compares: ids and enums exactly, text case-insensitively, times as Unix seconds. */
export type FilterKind = 'id' | 'text' | 'enum' | 'time';

export type FilterFields<T> = Readonly<Record<string, { kind: FilterKind; read: (item: T) => string | number }>>;

/** Graph's filtering operators (Marketing API, `filtering` on list and insights edges). */
export const FILTER_OPERATORS = [
  'EQUAL',
  'NOT_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'IN_RANGE',
  'NOT_IN_RANGE',
  'CONTAIN',
  'NOT_CONTAIN',
  'IN',
  'NOT_IN',
  'STARTS_WITH',
  'ENDS_WITH',
  'ANY',
  'ALL',
  'AFTER',
  'BEFORE',
  'ON_OR_AFTER',
  'ON_OR_BEFORE',
  'NONE',
  'TOP',
] as const;

const SIMULATED_OPERATORS: readonly string[] = FILTER_OPERATORS.slice(0, 14);

interface FilterEntry {
  field?: unknown;
  operator?: unknown;
  value?: unknown;
}

const bad = (message: string) => errorAnswer(400, 100, `(#100) ${message}`);

/** A test for the items a `filtering` parameter keeps, or Graph's refusal. */
export function itemFilter<T>(raw: string | undefined, fields: FilterFields<T>): ((item: T) => boolean) | GraphAnswer {
  if (raw === undefined) return () => true;
  let entries: FilterEntry[];
  try {
    entries = JSON.parse(raw) as FilterEntry[];
    if (!Array.isArray(entries)) throw new Error('not a list');
  } catch {
    return bad('param filtering must be an array of {field, operator, value}');
  }
  const tests: ((item: T) => boolean)[] = [];
  for (const [index, entry] of entries.entries()) {
    const test = entryTest(entry ?? {}, index, fields);
    if (typeof test !== 'function') return test;
    tests.push(test);
  }
  return (item) => tests.every((test) => test(item));
}

function entryTest<T>(
  entry: FilterEntry,
  index: number,
  fields: FilterFields<T>,
): ((item: T) => boolean) | GraphAnswer {
  const field = typeof entry.field === 'string' ? fields[entry.field] : undefined;
  if (!field) {
    const known = Object.keys(fields).join(', ');
    return bad(`Filtering field ${String(entry.field)} is invalid. The simulator filters this edge on: ${known}`);
  }
  const operator = String(entry.operator);
  if (!(FILTER_OPERATORS as readonly string[]).includes(operator))
    return bad(`filtering[${index}][operator] must be one of the following values: ${FILTER_OPERATORS.join(', ')}`);
  if (!SIMULATED_OPERATORS.includes(operator))
    return bad(
      `The simulator does not model the filtering operator ${operator} (it models ${SIMULATED_OPERATORS.join(', ')})`,
    );
  const wantsList = ['IN', 'NOT_IN', 'IN_RANGE', 'NOT_IN_RANGE'].includes(operator);
  if (wantsList !== Array.isArray(entry.value))
    return bad(
      `Filter value for ${String(entry.field)} must be ${wantsList ? 'a list' : 'a single value'} for ${operator}`,
    );
  const values = (wantsList ? (entry.value as unknown[]) : [entry.value]).map((value) => String(value));
  const read = field.read;
  const text = (item: T) => String(read(item));
  const lower = (item: T) => text(item).toLowerCase();
  const number = (item: T) => Number(read(item));
  const [first = ''] = values;
  switch (operator) {
    case 'EQUAL':
      return (item) => compareText(field.kind, text(item), first);
    case 'NOT_EQUAL':
      return (item) => !compareText(field.kind, text(item), first);
    case 'IN':
      return (item) => values.some((value) => compareText(field.kind, text(item), value));
    case 'NOT_IN':
      return (item) => !values.some((value) => compareText(field.kind, text(item), value));
    case 'CONTAIN':
      return (item) => lower(item).includes(first.toLowerCase());
    case 'NOT_CONTAIN':
      return (item) => !lower(item).includes(first.toLowerCase());
    case 'STARTS_WITH':
      return (item) => lower(item).startsWith(first.toLowerCase());
    case 'ENDS_WITH':
      return (item) => lower(item).endsWith(first.toLowerCase());
  }
  if (field.kind !== 'time')
    return bad(`Filtering operator ${operator} compares numbers or times; ${String(entry.field)} is neither`);
  const bounds = values.map(Number);
  if (bounds.some((bound) => !Number.isFinite(bound)))
    return bad(`Filter value for ${String(entry.field)} must be a Unix time for ${operator}`);
  const [low = 0, high = 0] = bounds;
  switch (operator) {
    case 'GREATER_THAN':
      return (item) => number(item) > low;
    case 'GREATER_THAN_OR_EQUAL':
      return (item) => number(item) >= low;
    case 'LESS_THAN':
      return (item) => number(item) < low;
    case 'LESS_THAN_OR_EQUAL':
      return (item) => number(item) <= low;
    case 'IN_RANGE':
      return (item) => number(item) >= low && number(item) <= high;
    default: // NOT_IN_RANGE
      return (item) => number(item) < low || number(item) > high;
  }
}

function compareText(kind: FilterKind, actual: string, wanted: string): boolean {
  return kind === 'text' ? actual.toLowerCase() === wanted.toLowerCase() : actual === wanted;
}

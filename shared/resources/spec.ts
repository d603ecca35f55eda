/**
 * What a resource defined in one file says (define.ts builds its schemas): the types and
 * `defineResource`, without zod, so the definitions the browser loads up front (its menu entries,
 * labels and access rules) do not bring the validation library with them.
 */
import type { ComponentType } from 'react';
import type { Permission } from '../permissions';

interface FieldBase {
  label: string;
  /** The table's column (its key in the drizzle table), when it is not the field's name. */
  column?: string;
  /** A line under the input. */
  help?: string;
  /** Shown as a column of the list. */
  list?: boolean;
  /** The list can be sorted by it. */
  sortable?: boolean;
  /** Set by the server only: answered, never written. */
  readOnly?: boolean;
  /** May be left empty (null). */
  optional?: boolean;
}

export type FieldSpec =
  | (FieldBase & { kind: 'text'; max?: number })
  | (FieldBase & { kind: 'url'; https?: boolean })
  /** Stored encrypted, answered masked (its last four characters); a masked value sent back keeps it. */
  | (FieldBase & { kind: 'secret'; https?: boolean })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'integer' })
  | (FieldBase & { kind: 'datetime' })
  /**
   * The id of a row of another list: `path` is its list under /api/ (the input's choices), `table`
   * the table the server checks the id against (rows with `live` true only, when given).
   */
  | (FieldBase & {
      kind: 'reference';
      path: string;
      optionText: string;
      table: string;
      /** A boolean column of that table that marks a row as gone (in the trash): such ids are refused. */
      goneColumn?: string;
      /** What an empty value means, shown in its place. */
      emptyText?: string;
    });

export interface ResourceSpec {
  /** The react-admin resource and its route (/<name>). */
  name: string;
  /** Its table's name in the database: the file's `table` export, or a table of server/db/schema. */
  table: string;
  /** Its list under /api/ ('alert_destinations/'); one record is `${path}${id}/`. */
  path: string;
  /** The field that identifies a record, when it is not `id`. */
  idField?: string;
  labels: { one: string; many: string };
  /** What the records are, in a sentence or two: the list says it while it is empty. */
  about?: string;
  fields: Record<string, FieldSpec>;
  /** Who may read (any of) and change (any of); without `change` the resource is read-only. */
  access: { read: Permission[]; change?: Permission[] };
  /** The list's search (`?search=`) looks in these fields. */
  search?: string[];
  /** Default ordering and page size (and the most a page may ask). */
  list?: { ordering?: string; perPage?: number; maxPerPage?: number };
  /** Its entry in the side panel, in this order among the others. */
  menu?: { order: number; icon: () => Promise<{ default: ComponentType }> };
}

export const defineResource = <T extends ResourceSpec>(spec: T): T => spec;

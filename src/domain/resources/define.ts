/**
 * A resource in one file: its definition names the fields (each with its label, how it is written
 * and shown), who may read and change it, its menu entry and labels; the same file holds its table.
 * The server (server/resources/) turns a definition into routes with their OpenAPI, the browser
 * (src/resources/defined/) into list, create and edit views, a menu entry and translations.
 * docs/adding-a-resource.md is the recipe.
 */
import type { ComponentType } from 'react';
import { z } from 'zod';
import type { Permission } from '../permissions';
import { MESSAGES, hasNoControlCharacters } from '../validation';

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

/** What a secret is answered as: eight stars and at most its last four characters. */
export const MASKED = /^\*{8}.{0,4}$/;

const httpsUrl = (https: boolean | undefined, maskAllowed = false) =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(2000, MESSAGES.max(2000))
    .refine(
      (value) =>
        (maskAllowed && MASKED.test(value)) || (URL.canParse(value) && (!https || value.startsWith('https://'))),
      {
        message: https ? 'Enter an https:// address' : 'Enter a web address',
      },
    );

/** The schema a field's value is written with (create and edit). */
export function inputSchemaOf(field: FieldSpec): z.ZodType {
  const base = (() => {
    switch (field.kind) {
      case 'text':
        return z
          .string({ error: MESSAGES.required })
          .trim()
          .min(1, MESSAGES.required)
          .max(field.max ?? 200, MESSAGES.max(field.max ?? 200))
          .refine(hasNoControlCharacters, MESSAGES.controlCharacters);
      case 'url':
        return httpsUrl(field.https);
      case 'secret':
        // Sent back masked, as it was shown: the stored value is kept.
        return httpsUrl(field.https, true);
      case 'boolean':
        return z.boolean({ error: MESSAGES.required });
      case 'integer':
      case 'reference':
        return z.number({ error: MESSAGES.numeric }).int(MESSAGES.integer);
      case 'datetime':
        return z.iso.datetime({ error: MESSAGES.required });
    }
  })();
  return field.optional ? base.nullable().optional() : base;
}

/** The schema of a field's value in an answer. */
export function outputSchemaOf(field: FieldSpec): z.ZodType {
  const base = (() => {
    switch (field.kind) {
      case 'boolean':
        return z.boolean();
      case 'integer':
      case 'reference':
        return z.number().int();
      case 'secret':
        return z.string().describe('Masked: only its last four characters are shown');
      default:
        return z.string();
    }
  })();
  return field.optional || field.readOnly ? base.nullable() : base;
}

const writable = (spec: ResourceSpec) => Object.entries(spec.fields).filter(([, field]) => !field.readOnly);

/** The create body (and form). */
export const createSchemaOf = (spec: ResourceSpec) =>
  z.object(Object.fromEntries(writable(spec).map(([name, field]) => [name, inputSchemaOf(field)]))).strict();

/** The edit body: the changed fields only. */
export const updateSchemaOf = (spec: ResourceSpec) => createSchemaOf(spec).partial();

/** The answer: exactly the fields the definition names. */
export const recordSchemaOf = (spec: ResourceSpec) =>
  z.object({
    ...(spec.idField ? {} : { id: z.number().int() }),
    ...Object.fromEntries(Object.entries(spec.fields).map(([name, field]) => [name, outputSchemaOf(field)])),
  });

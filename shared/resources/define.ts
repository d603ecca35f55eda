/**
 * A resource in one file: its definition names the fields (each with its label, how it is written
 * and shown), who may read and change it, its menu entry and labels; the same file holds its table.
 * The server (server/resources/) turns a definition into routes with their OpenAPI, the browser
 * (src/resources/defined/) into list, create and edit views, a menu entry and translations.
 * docs/adding-a-resource.md is the recipe.
 */
import { z } from 'zod';
import { MESSAGES, hasNoControlCharacters } from '../validation';
import type { FieldSpec, ResourceSpec } from './spec';

export { defineResource, type FieldSpec, type ResourceSpec } from './spec';

/** What a secret is answered as: eight stars and at most its last four characters. */
export const MASKED = /^\*{8}.{0,4}$/;

/** What a stored secret is answered as when the server's key cannot read it: it must be entered again. */
export const NEEDS_REENTRY = 'needs re-entry';

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
        return z
          .string()
          .describe(
            `Masked: only its last four characters are shown; '${NEEDS_REENTRY}' when the server's key cannot read it`,
          );
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

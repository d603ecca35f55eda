import type { z } from 'zod';
import { toFieldErrors } from '../../src/domain/validation';
import { ValidationError } from './errors';

/** Parses a request body with a shared schema; failures become 400 `{field: ["message"]}`. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new ValidationError(toFieldErrors(result.error));
  return result.data;
}

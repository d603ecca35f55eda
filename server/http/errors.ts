/** The contract's error shapes (DESIGN §4): 400 `{field: ["message"]}`, otherwise `{detail}`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { FieldErrors } from '../../src/domain/validation';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : JSON.stringify(body));
  }
}

export class ValidationError extends ApiError {
  constructor(readonly fields: FieldErrors) {
    super(400, fields);
  }
}

export const badRequest = (detail: string) => new ApiError(400, { detail });
export const notAuthenticated = (detail = 'Authentication credentials were not provided.') =>
  new ApiError(401, { detail });
export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, { detail });
export const notFound = (detail = 'Not found.') => new ApiError(404, { detail });

/** Turns fastify's JSON-schema validation errors into field errors. */
function schemaErrorsToFields(error: FastifyError): FieldErrors {
  const fields: FieldErrors = {};
  for (const item of error.validation ?? []) {
    const missing = (item.params as { missingProperty?: string } | undefined)?.missingProperty;
    const path = item.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = missing ?? (path || 'non_field_errors');
    const message = missing ? 'Field is required' : (item.message ?? 'Invalid value');
    fields[field] = [...(fields[field] ?? []), message];
  }
  return fields;
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.statusCode).send(error.body);
    if (error.validation) return reply.status(400).send(schemaErrorsToFields(error));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error.' });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).header('cache-control', 'no-store').send({ detail: 'Not found.' }),
  );
}

/** The contract's error shapes (docs/contract.md#conventions): 400 `{field: ["message"]}`, otherwise `{detail}`. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldErrors } from '../../shared/validation';
import { NOT_FOUND, NOT_FOUND_MESSAGES } from './schemas';

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
export const notFound = (detail = NOT_FOUND) => new ApiError(404, { detail });

/**
 * A route schema's zod issues → `{field: ["message"]}`, the same answer as the domain's
 * toFieldErrors: nested paths join with dots, an issue of the whole value is non_field_errors.
 */
function schemaErrorsToFields(error: FastifyError): FieldErrors {
  const fields: FieldErrors = {};
  for (const item of error.validation ?? []) {
    const field = item.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'non_field_errors';
    const message = item.message ?? 'Invalid value';
    const messages = fields[field] ?? [];
    if (!messages.includes(message)) fields[field] = [...messages, message];
  }
  return fields;
}

/** A path whose id names no row (malformed, zero, too large) is answered like a row that does not exist. */
const isUnknownId = (error: FastifyError) =>
  error.validationContext === 'params' &&
  (error.validation ?? []).every((item) => NOT_FOUND_MESSAGES.has(item.message ?? ''));

/**
 * The router's own refusals (a malformed percent-encoding, a path parameter over the length limit),
 * which Fastify answers before any route or error handler runs: the contract's `{detail}` too.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  reply
    .status(status)
    .header('cache-control', 'no-store')
    .send({ detail: status === 414 ? 'A path parameter is too long.' : 'The URL is malformed.' });
}

/**
 * PostgreSQL's "cannot serve now" answers (connection refused or lost, the server shutting down or
 * starting up, too many connections) anywhere in an error's cause chain (drizzle wraps the driver's).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.statusCode).send(error.body);
    if (hasZodFastifySchemaValidationErrors(error)) {
      if (isUnknownId(error)) return reply.status(404).send({ detail: error.validation[0]?.message ?? NOT_FOUND });
      return reply.status(400).send(schemaErrorsToFields(error));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    // Nothing was lost and the call can be repeated: say so, rather than "internal error".
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ detail: 'The database cannot be reached right now. Try again in a moment.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error.' });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).header('cache-control', 'no-store').send({ detail: NOT_FOUND }),
  );
}

/**
 * CRM lead outcomes (docs/api.md, "Lead outcomes (CRM)"):
 * `POST /api/folders/{id}/lead_outcomes/upload/` (a CSV file as the body, `text/csv`),
 * `GET /api/folders/{id}/lead_outcomes/` (leads by stage and the key's state),
 * `POST`/`DELETE /api/folders/{id}/outcome_key/` (make or rotate the folder's key, shown once; revoke it),
 * and `POST /api/lead_outcomes/`, called by a CRM with `Authorization: Bearer <the folder's key>`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CRM_POST_MAX_OUTCOMES,
  CRM_UPLOAD_MAX_BYTES,
  crmResultSchema,
  leadOutcomeSummarySchema,
  newOutcomeKeySchema,
} from '../../shared/leadOutcomes';
import { actorOf, requirePermission } from '../auth/plugin';
import { byAddress, byUser, limitAttempts } from '../http/attemptLimit';
import { ApiError, notAuthenticated, ValidationError } from '../http/errors';
import { detailSchema, errors, idParams, noBody, noContent } from '../http/schemas';
import { createOutcomeKeys } from './crmKeys';
import { CrmFileError, parseCrmCsv, type RawOutcome, readOutcomes } from './crmParse';
import { createCrmStore } from './crmStore';

const tags = ['lead outcomes'];
const readRules = requirePermission('read_rules');
const changeRules = requirePermission('create_update_rules');
const CSV_TYPES = ['text/csv', 'application/csv'];
const MEGABYTES = CRM_UPLOAD_MAX_BYTES / (1024 * 1024);

const tooLarge = { 413: detailSchema.describe(`The body is over ${MEGABYTES} MB`) };

/** The body-size refusal in words (Fastify's own reads "Request body is too large"); anything else to the app's handler. */
function sizeInWords(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
  return reply.status(413).send({
    detail: `The file is larger than ${MEGABYTES} MB. Split it into smaller files (each row is kept once, so overlapping files do no harm).`,
  });
}

const outcomeFields = {
  email: z.string().max(320).optional().describe('The lead’s e-mail: hashed at once, never kept'),
  email_sha256: z.string().max(64).optional().describe('Or the SHA-256 (hex) of the trimmed, lower-case e-mail'),
  lead_id: z.string().max(20).optional().describe('Or the Meta lead id (digits, as a string)'),
  stage: z.string().max(40).optional().describe('qualified, booked, attended or won'),
  time: z.string().max(40).optional().describe('ISO 8601 (with an offset, or in the ad account’s zone) or a date'),
};
const postBody = z
  .object({
    ...outcomeFields,
    outcomes: z
      .array(z.object(outcomeFields))
      .min(1)
      .max(CRM_POST_MAX_OUTCOMES)
      .optional()
      .describe(`Up to ${CRM_POST_MAX_OUTCOMES} outcomes; or send one outcome's fields at the top level`),
  })
  .describe('One outcome, or several under `outcomes`');

/** The one outcome at the top level (errors keyed by field) or the list (keyed `outcomes.<index>.<field>`). */
function itemsOf(body: z.infer<typeof postBody>): { row: string; raw: RawOutcome }[] {
  const { outcomes, ...one } = body;
  if (!outcomes) return [{ row: '', raw: one }];
  if (Object.values(one).some((v) => v !== undefined))
    throw new ValidationError({ outcomes: ['Send one outcome’s fields or a list under outcomes, not both'] });
  return outcomes.map((raw, i) => ({ row: `outcomes.${i}`, raw }));
}

async function csvOnly(request: FastifyRequest) {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!CSV_TYPES.includes(type)) throw new ApiError(415, { detail: 'Send the file as text/csv.' });
}

const bearerOf = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

const crmRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createCrmStore(app.db);
  const keys = createOutcomeKeys(app.db);
  const uploads = limitAttempts(app, 'crm-upload', [{ key: byUser, max: 30 }], 'uploads');
  // Before the key is looked up: guessing keys from one address is slowed as much as using one.
  const posts = limitAttempts(
    app,
    'crm-post',
    [
      { key: byAddress, max: 240 },
      { key: (r) => `key:${bearerOf(r) ?? ''}`, max: 120 },
    ],
    'lead outcome posts',
  );
  const folderOfRequest = new WeakMap<FastifyRequest, number>();

  // Only this area's routes read CSV, and only as text (the route's bodyLimit bounds it).
  app.addContentTypeParser(CSV_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post(
    '/folders/:id/lead_outcomes/upload/',
    {
      // The permission and the type before the body is read: nobody without it makes the server read 10 MB.
      onRequest: [changeRules, csvOnly],
      preHandler: uploads,
      bodyLimit: CRM_UPLOAD_MAX_BYTES,
      errorHandler: sizeInWords,
      schema: {
        tags,
        summary: 'Upload a CSV file of lead outcomes',
        description: `A header row naming email (or email_sha256, or lead_id), stage and time; at most ${MEGABYTES} MB. Rows already known add nothing.`,
        consumes: ['text/csv'],
        params: idParams,
        body: z.string().describe('The CSV file'),
        response: {
          200: crmResultSchema,
          ...errors(400, 403, 404, 429),
          ...tooLarge,
          415: detailSchema.describe('Not sent as text/csv'),
        },
      },
    },
    async (request) => {
      const folderId = request.params.id;
      const zone = await store.zoneOf(folderId);
      let parsed: Awaited<ReturnType<typeof parseCrmCsv>>;
      try {
        parsed = await parseCrmCsv(request.body, { zone, now: new Date() });
      } catch (error) {
        if (error instanceof CrmFileError) throw new ValidationError({ file: [error.message] });
        throw error;
      }
      return store.upload(actorOf(request), folderId, parsed);
    },
  );

  app.get(
    '/folders/:id/lead_outcomes/',
    {
      preValidation: readRules,
      schema: { tags, params: idParams, response: { 200: leadOutcomeSummarySchema, ...errors(403, 404) } },
    },
    async (request) => {
      const summary = await store.summary(request.params.id);
      return { ...summary, key: await keys.status(request.params.id) };
    },
  );

  app.post(
    '/folders/:id/outcome_key/',
    {
      preValidation: changeRules,
      schema: {
        tags,
        summary: 'Make or rotate the folder’s lead outcome key (the old one stops working)',
        params: idParams,
        body: noBody,
        response: { 201: newOutcomeKeySchema, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await keys.rotate(actorOf(request), request.params.id)),
  );

  app.delete(
    '/folders/:id/outcome_key/',
    {
      preValidation: changeRules,
      schema: { tags, params: idParams, response: { 204: noContent, ...errors(403, 404) } },
    },
    async (request, reply) => {
      await keys.revoke(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/lead_outcomes/',
    {
      config: { public: true },
      onRequest: posts,
      preValidation: async (request) => {
        const key = bearerOf(request);
        if (!key) throw notAuthenticated('Send the folder’s lead outcome key as Authorization: Bearer <key>.');
        const folderId = await keys.folderOfKey(key);
        if (!folderId)
          throw notAuthenticated('This lead outcome key is not valid: it was revoked, rotated or never made.');
        folderOfRequest.set(request, folderId);
      },
      schema: {
        tags,
        summary: 'Post lead outcomes with a folder’s key',
        description: 'Authorization: Bearer <the folder’s lead outcome key>. Outcomes already known add nothing.',
        body: postBody,
        response: { 200: crmResultSchema, ...errors(400, 401, 429) },
      },
    },
    async (request) => {
      const folderId = folderOfRequest.get(request)!;
      const parsed = readOutcomes(itemsOf(request.body), { zone: await store.zoneOf(folderId), now: new Date() });
      return store.record(folderId, parsed);
    },
  );
};

export default crmRoutes;

/**
 * Meta's ads webhooks (docs/api.md, "Meta's ads webhooks"), public — Meta signs in no user:
 * `GET /api/meta/webhooks/` answers the subscription handshake (hub.mode=subscribe with the
 * configured verify token: the challenge back, as text), and `POST /api/meta/webhooks/` takes a
 * delivery whose `X-Hub-Signature-256` is the HMAC-SHA256 of its raw body keyed with the app secret
 * (missing: 401, wrong: 403, and nothing is kept). A delivery is stored and queued, never judged
 * here, so Meta is answered at once. Without META_APP_SECRET and META_WEBHOOK_VERIFY_TOKEN both, the
 * server has no such endpoint: 404.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, notAuthenticated } from '../http/errors';
import { detailSchema, errors } from '../http/schemas';
import { changesOf, webhookBodySchema } from './payload';
import { signatureMatches } from './signature';
import { createPushStore } from './store';

const tags = ['meta webhooks'];

const handshakeQuery = z.object({
  'hub.mode': z.string().max(40).optional(),
  'hub.verify_token': z.string().max(400).optional(),
  'hub.challenge': z.string().max(400).optional(),
});

const receivedSchema = z.object({
  received: z.number().int().describe('Changes in the delivery'),
  new: z.number().int().describe('Changes not seen before (a redelivery adds none)'),
});

const notConfigured = {
  404: detailSchema.describe('META_APP_SECRET and META_WEBHOOK_VERIFY_TOKEN are not both set on this server'),
};

const metaWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { metaAppSecret: secret, metaWebhookVerifyToken: verifyToken } = app.config;
  const store = createPushStore(app.db, { queue: app.pushQueue, warn: (message) => app.log.warn(message) });
  const configured = () => {
    if (!secret || !verifyToken)
      throw new ApiError(404, { detail: 'Meta webhooks are not configured on this server.' });
    return { secret, verifyToken };
  };
  // The signature is over the bytes Meta sent: this area reads JSON bodies itself and keeps them.
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(null, undefined); // refused by validation, after the signature is checked
    }
  });

  app.get(
    '/meta/webhooks/',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Meta’s webhook handshake: the challenge back when the verify token is this server’s',
        querystring: handshakeQuery,
        response: {
          200: z.string().describe('hub.challenge, as sent, as plain text'),
          403: detailSchema.describe('Not a subscribe handshake, or another verify token'),
          ...notConfigured,
        },
      },
    },
    async (request, reply) => {
      const { verifyToken: expected } = configured();
      const query = request.query;
      if (query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== expected)
        throw new ApiError(403, { detail: 'The verify token is not this server’s.' });
      return reply.type('text/plain; charset=utf-8').send(query['hub.challenge'] ?? '');
    },
  );

  app.post(
    '/meta/webhooks/',
    {
      config: { public: true },
      preValidation: async (request) => {
        const { secret: key } = configured();
        const header = request.headers['x-hub-signature-256'];
        const signature = Array.isArray(header) ? header[0] : header;
        if (!signature) throw notAuthenticated('X-Hub-Signature-256 is missing.');
        if (!signatureMatches(signature, rawBodies.get(request) ?? Buffer.alloc(0), key))
          throw new ApiError(403, { detail: 'X-Hub-Signature-256 does not match the body.' });
      },
      schema: {
        tags,
        summary: 'A delivery of Meta’s ads webhooks, signed with the app secret',
        body: webhookBodySchema,
        response: { 200: receivedSchema, ...errors(400, 401, 403), ...notConfigured },
      },
    },
    async (request) => store.receive(changesOf(request.body)),
  );
};

export default metaWebhookRoutes;

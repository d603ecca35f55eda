/**
 * List routes marked `config: { pageCache: true }` answer from the page cache (pageCache.ts) when
 * they can: after authentication and the route's permission check, keyed by the signed-in user and
 * the request's URL, so an answer is only ever given again to whom it was first given. A request
 * with `Cache-Control: no-cache` (a browser's hard reload) reads the database and keeps the result.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onSendHookHandler, RouteHandlerMethod } from 'fastify';
import { actorOf } from '../auth/plugin';
import { listPageAnswers } from '../observability/metrics';
import { keepUntilChanged } from './keptUntilChanged';
import { createPageCache, DATA_CHANGED_CHANNEL, type PageCache } from './pageCache';

declare module 'fastify' {
  interface FastifyInstance {
    pageCache: PageCache;
  }
  interface FastifyContextConfig {
    /** A GET whose answer depends only on the signed-in user, the URL and the tables lists read. */
    pageCache?: boolean;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

interface PageRead {
  key: string;
  startedAt: number;
}
const pageReads = new WeakMap<FastifyRequest, PageRead>();

const asksForFresh = (request: FastifyRequest) => /\bno-cache\b/i.test(request.headers['cache-control'] ?? '');

export default fp(async (app) => {
  const cache = createPageCache({
    ttlSeconds: app.config.pageCacheSeconds,
    maxBytes: app.config.pageCacheMegabytes * 1024 * 1024,
  });
  app.decorate('pageCache', cache);
  await keepUntilChanged(app, DATA_CHANGED_CHANNEL, cache);

  /** Keeps the answer the route's handler read, as it is sent. */
  const keepAnswer: onSendHookHandler = (request, reply, payload, done) => {
    const read = pageReads.get(request);
    if (read && reply.statusCode === 200 && typeof payload === 'string')
      cache.keep(read.key, Buffer.from(payload), read.startedAt);
    done(null, payload);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.pageCache || route.method !== 'GET') return;
    // Only the cached routes' answers pass here, not every request's.
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), keepAnswer];
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function answerFromMemory(this: typeof app, request: FastifyRequest, reply: FastifyReply) {
      const key = `${actorOf(request).id} ${request.url}`;
      const fresh = asksForFresh(request);
      const kept = fresh ? undefined : cache.find(key);
      if (kept) {
        listPageAnswers.inc({ source: 'kept' });
        return reply.type(JSON_TYPE).send(kept);
      }
      listPageAnswers.inc({ source: fresh ? 'fresh' : 'read' });
      pageReads.set(request, { key, startedAt: cache.readStarts() });
      return handler.call(this, request, reply);
    };
  });
});

/**
 * List routes marked `config: { pageCache: { reads: [tables] } }` answer from the page cache
 * (pageCache.ts) when they can: after authentication and the route's permission check, keyed by the
 * list and the request's URL (such a list's answer is the same for everyone its guard lets in, so a
 * team shares its pages), and emptied only by changes to the tables the list reads. A request with
 * `Cache-Control: no-cache` (a browser's hard reload) reads the database and keeps the result.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onSendHookHandler, RouteHandlerMethod } from 'fastify';
import { actorOf } from '../auth/plugin';
import { listPageAnswers } from '../observability/counters';
import { createPageCache, DATA_CHANGED_CHANNEL, type PageCache, type PageKey, type ReadMark } from './pageCache';

declare module 'fastify' {
  interface FastifyInstance {
    pageCache: PageCache;
  }
  interface FastifyContextConfig {
    /**
     * A GET whose answer depends only on its URL and the tables it `reads`, never on who asks
     * (whoever its guard lets in gets the same answer).
     */
    pageCache?: { reads: readonly string[] };
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

interface PageRead {
  key: PageKey;
  mark: ReadMark;
}
const pageReads = new WeakMap<FastifyRequest, PageRead>();

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const asksForFresh = (request: FastifyRequest) => /\bno-cache\b/i.test(request.headers['cache-control'] ?? '');

export default fp(async (app) => {
  const cache = createPageCache({
    ttlSeconds: app.config.pageCacheSeconds,
    maxBytes: app.config.pageCacheMegabytes * 1024 * 1024,
  });
  app.decorate('pageCache', cache);
  // A signed-in user's write: pages read before it are not given to them again, from before the
  // answer is sent (sign-in and token renewal have no signed-in user and change nothing a list shows).
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.user && !READ_ONLY_METHODS.has(request.method) && request.routeOptions.url?.startsWith('/api/'))
      cache.userWrote(request.user.id);
    done(null, payload);
  });
  const stopListening = await app.dbh.listen(
    DATA_CHANGED_CHANNEL,
    (table) => cache.tableChanged(table),
    (listening) => cache.setListening(listening),
  );
  app.addHook('onClose', () => stopListening());

  /** Keeps the answer the route's handler read, as it is sent. */
  const keepAnswer: onSendHookHandler = (request, reply, payload, done) => {
    const read = pageReads.get(request);
    if (read && reply.statusCode === 200 && typeof payload === 'string')
      cache.keep(read.key, Buffer.from(payload), read.mark);
    done(null, payload);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.pageCache || route.method !== 'GET') return;
    cache.listReads(route.url, route.config.pageCache.reads);
    const answers = {
      kept: listPageAnswers.labels({ route: route.url, source: 'kept' }),
      read: listPageAnswers.labels({ route: route.url, source: 'read' }),
      fresh: listPageAnswers.labels({ route: route.url, source: 'fresh' }),
    };
    // Only the cached routes' answers pass here, not every request's.
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), keepAnswer];
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function answerFromMemory(this: typeof app, request: FastifyRequest, reply: FastifyReply) {
      const key = { list: route.url, url: request.url };
      const fresh = asksForFresh(request);
      const kept = fresh ? undefined : cache.find(key, actorOf(request).id);
      if (kept) {
        answers.kept.inc();
        return reply.type(JSON_TYPE).send(kept);
      }
      (fresh ? answers.fresh : answers.read).inc();
      pageReads.set(request, { key, mark: cache.readStarts(key) });
      // A list's statements wait for a connection once, not once each (DbHandle.onOneConnection).
      return app.dbh.onOneConnection(async () => handler.call(this, request, reply));
    };
  });
});

/**
 * What a process keeps in memory about the database (the signed-in users) is
 * emptied by every change that could make it wrong:
 * - any API call that may have written (every method but GET, HEAD and OPTIONS, and the GET routes
 *   the contract has write, marked `config: { writes: true }`) empties it before that call's answer
 *   is sent, so the caller's next request reads the database again, whatever the notification is doing.
 *   A route whose writes cannot touch what is kept says so (`config: { changesKept }`): an area
 *   that never writes users, groups, memberships or sessions ('nothing'), or a call that can only
 *   end sessions ('sessions'). Otherwise every colleague's rename or switch would cost each
 *   signed-in person their next request's reads (measured by the mixed-traffic bench, docs/bench.md).
 * - a NOTIFY on `channel` (sent by database triggers when a change commits, whoever made it)
 *   empties it in every process, or only its sessions when the change was to sessions;
 * - while that channel cannot be heard, it keeps nothing (`setListening(false)`).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET that changes data (the contract has a few): it empties what is kept, like a POST. */
    writes?: boolean;
    /** What this route's writes can change of what is kept; everything unless it says. */
    changesKept?: ChangesKept;
  }
}

/** 'sessions': only whether sessions stand (a sign-out, a replayed refresh token). */
export type ChangesKept = 'nothing' | 'sessions';

export interface KeptInMemory {
  /** Forgets everything, or only the sessions. */
  clear(only?: 'sessions'): void;
  setListening(listening: boolean): void;
}

/** The table the database's notification names (the trigger sends TG_TABLE_NAME). */
const SESSIONS_TABLE = 'sessions';

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const mayWrite = (request: FastifyRequest) =>
  request.routeOptions.config.writes === true || !READ_ONLY_METHODS.has(request.method);

/** Registers `routes` with every one of its routes marked as changing nothing that is kept. */
export function changingNothingKept(routes: FastifyPluginAsync): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, changesKept: route.config?.changesKept ?? 'nothing' };
    });
    await app.register(routes);
  };
}

export async function keepUntilChanged(app: FastifyInstance, channel: string, kept: KeptInMemory): Promise<void> {
  // Callback style: every request passes here, and an async hook costs a promise each time.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (mayWrite(request) && request.routeOptions.url?.startsWith('/api/')) {
      const changes = request.routeOptions.config.changesKept;
      if (changes === 'sessions') kept.clear('sessions');
      else if (changes !== 'nothing') kept.clear();
    }
    done(null, payload);
  });
  const stopListening = await app.dbh.listen(
    channel,
    (table) => (table === SESSIONS_TABLE ? kept.clear('sessions') : kept.clear()),
    (listening) => kept.setListening(listening),
  );
  app.addHook('onClose', () => stopListening());
}

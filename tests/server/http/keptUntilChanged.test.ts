/**
 * What a process keeps in memory is emptied by its own writes before their answer leaves (whatever
 * the database's notification is doing), by the notification, and is off while the channel is down.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { changingNothingKept, keepUntilChanged } from '../../../server/http/keptUntilChanged';

/** A Fastify app whose database channel only speaks when the test says so. */
async function appKeeping() {
  const kept = { clear: vi.fn(), setListening: vi.fn() };
  const channel: { notify?: (payload: string) => void; listening?: (on: boolean) => void; stopped: boolean } = {
    stopped: false,
  };
  const app = Fastify();
  const dbh: Pick<DbHandle, 'listen'> = {
    async listen(_name, onNotify, onListening) {
      channel.notify = onNotify;
      channel.listening = onListening;
      onListening(true);
      return async () => {
        channel.stopped = true;
      };
    },
  };
  app.decorate('dbh', dbh as DbHandle);
  await keepUntilChanged(app, 'data_changed', kept);
  let clearedBeforeAnswer: number | undefined;
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const)
    app.route({ method, url: '/api/thing/', handler: async () => ({ ok: true }) });
  app.get('/api/thing/move/', { config: { writes: true } }, async () => ({ moved: true }));
  app.post('/api/token/refresh/', { config: { changesKept: 'sessions' } }, async () => ({ renewed: true }));
  await app.register(
    changingNothingKept(async (area) => {
      area.patch('/api/folder/', async () => ({ renamed: true }));
    }),
  );
  // Registered after keepUntilChanged's: runs after it, as the answer is about to be sent.
  app.addHook('onSend', async (_request, _reply, payload) => {
    clearedBeforeAnswer = kept.clear.mock.calls.length;
    return payload;
  });
  await app.ready();
  return { app, kept, channel, clearedBeforeAnswer: () => clearedBeforeAnswer };
}

describe('keepUntilChanged', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('empties what is kept before the answer of every API call that may write leaves', async () => {
    const keeping = await appKeeping();
    app = keeping.app;
    for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
      const before = keeping.kept.clear.mock.calls.length;
      expect((await app.inject({ method, url: '/api/thing/' })).statusCode).toBe(200);
      expect(keeping.clearedBeforeAnswer()).toBe(before + 1);
    }
  });

  it('empties before the answer of a GET the contract has write (moving a member to a group)', async () => {
    const keeping = await appKeeping();
    app = keeping.app;
    expect((await app.inject({ method: 'GET', url: '/api/thing/move/' })).statusCode).toBe(200);
    expect(keeping.clearedBeforeAnswer()).toBe(1);
  });

  it("keeps what it has through the writes of an area that never changes people or sessions (a colleague's folder rename)", async () => {
    const keeping = await appKeeping();
    app = keeping.app;
    expect((await app.inject({ method: 'PATCH', url: '/api/folder/' })).statusCode).toBe(200);
    expect(keeping.kept.clear).not.toHaveBeenCalled();
  });

  it('forgets only the sessions after a call that can only end sessions, and after a change to sessions', async () => {
    const keeping = await appKeeping();
    app = keeping.app;
    expect((await app.inject({ method: 'POST', url: '/api/token/refresh/' })).statusCode).toBe(200);
    expect(keeping.kept.clear).toHaveBeenLastCalledWith('sessions');
    keeping.channel.notify?.('sessions');
    expect(keeping.kept.clear).toHaveBeenLastCalledWith('sessions');
    keeping.channel.notify?.('user_groups');
    expect(keeping.kept.clear).toHaveBeenLastCalledWith();
  });

  it('keeps what it has through reads', async () => {
    const keeping = await appKeeping();
    app = keeping.app;
    await app.inject({ method: 'GET', url: '/api/thing/' });
    expect(keeping.kept.clear).not.toHaveBeenCalled();
  });

  it('empties on every notification, follows the channel up and down, and stops listening on close', async () => {
    const keeping = await appKeeping();
    app = keeping.app;
    expect(keeping.kept.setListening).toHaveBeenLastCalledWith(true);
    keeping.channel.notify?.('folders');
    expect(keeping.kept.clear).toHaveBeenCalledTimes(1);
    keeping.channel.listening?.(false);
    expect(keeping.kept.setListening).toHaveBeenLastCalledWith(false);
    await app.close();
    app = undefined;
    expect(keeping.channel.stopped).toBe(true);
  });
});

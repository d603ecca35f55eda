/**
 * /healthz and /readyz: public, outside /api; readiness follows the database, the migrations
 * recorded in it against the migration journal, and, in the roles that run background work, the
 * rule engine's job queue (a real pg-boss on the test database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuleEngine, type RuleEngine } from '../../../server/run/startInWorker';
import { QUEUES } from '../../../server/run/queue';
import { pgBossProbe } from '../../../server/observability/readiness';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { CapturingMailer, FakePlatform, quietLog } from '../run/support';

const get = (api: TestApi, url: string) => api.request(null, { method: 'GET', url });

eachDatabase((engine) => {
  describe(`health probes on ${engine}`, () => {
    let api: TestApi;
    let ruleEngine: RuleEngine;

    beforeAll(async () => {
      api = await createTestApi(engine, { config: { role: 'all' } });
      ruleEngine = await startRuleEngine({
        dbh: api.dbh,
        client: new FakePlatform(),
        alerts: { mailer: new CapturingMailer(), recipients: [], publicUrl: 'http://console.test' },
        log: quietLog,
        autoScan: false,
      });
      api.app.jobQueue = pgBossProbe(ruleEngine.boss, QUEUES.run);
    });
    afterAll(async () => {
      await ruleEngine.stop();
      await api.close();
    });

    it('answers /healthz without signing in', async () => {
      const response = await get(api, '/healthz');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('is ready when the database answers, is migrated, and the job queue runs', async () => {
      const response = await get(api, '/readyz');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        status: 'ok',
        checks: { database: 'ok', migrations: 'ok', job_queue: 'ok' },
      });
    });

    it('is not ready when a migration of the journal is missing from the database', async () => {
      const [last] = (
        await api.dbh.sql.query<{ id: number; hash: string; created_at: string }>(
          'select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
        )
      ).rows;
      await api.dbh.sql.query('delete from drizzle.__drizzle_migrations where id = $1', [last!.id]);
      try {
        const response = await get(api, '/readyz');
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({
          status: 'unavailable',
          failed: ['migrations'],
          checks: {
            database: 'ok',
            job_queue: 'ok',
            migrations: expect.stringMatching(/^migrations not applied: 0\d+_/),
          },
        });
      } finally {
        await api.dbh.sql.query('insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)', [
          last!.id,
          last!.hash,
          last!.created_at,
        ]);
      }
      expect((await get(api, '/readyz')).statusCode).toBe(200);
    });

    it('is not ready once the job queue has stopped', async () => {
      await ruleEngine.stop();
      const response = await get(api, '/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        failed: ['job_queue'],
        checks: { job_queue: 'the job queue has stopped' },
      });
    });
  });
});

describe('readiness by role', () => {
  let apiRole: TestApi;
  let allRole: TestApi;

  beforeAll(async () => {
    [apiRole, allRole] = await Promise.all([
      createTestApi('pglite', { config: { role: 'api' } }),
      createTestApi('pglite', { config: { role: 'all' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([apiRole.close(), allRole.close()]);
  });

  it('does not ask an API-only process for a job queue', async () => {
    const response = await get(apiRole, '/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json().checks).toEqual({ database: 'ok', migrations: 'ok' });
  });

  it('is not ready in ROLE=all when no job queue was started', async () => {
    const response = await get(allRole, '/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      failed: ['job_queue'],
      checks: { job_queue: 'the job queue was not started' },
    });
  });

  it('is not ready when the database is gone', async () => {
    await apiRole.dbh.close();
    apiRole.dbh.close = async () => undefined; // closed already
    const response = await get(apiRole, '/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      failed: ['database', 'migrations'],
      checks: { database: 'the database does not answer' },
    });
  });
});

/**
 * A worker's HTTP server (ROLE=worker): /readyz asks the job queue the worker runs, as the API's
 * does — a worker whose queue answers is ready, one whose queue was not started is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProbeServer } from '../../../server/observability/probeServer';
import { createTestApi, type TestApi } from '../../support/api';

describe('the worker probe server', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi('pglite');
  });
  afterAll(() => api.close());

  const readyz = async (services: Parameters<typeof buildProbeServer>[0]['services']) => {
    const probes = await buildProbeServer({ config: { ...api.app.config, role: 'worker' }, dbh: api.dbh, services });
    try {
      const response = await probes.inject({ method: 'GET', url: '/readyz' });
      return { status: response.statusCode, checks: response.json().checks };
    } finally {
      await probes.close();
    }
  };

  it('is ready when the worker’s job queue answers', async () => {
    expect(await readyz({ jobQueue: { check: async () => undefined } })).toEqual({
      status: 200,
      checks: { database: 'ok', migrations: 'ok', job_queue: 'ok' },
    });
  });

  it('is not ready when the worker runs no job queue', async () => {
    expect(await readyz({})).toMatchObject({ status: 503, checks: { job_queue: 'the job queue was not started' } });
  });
});

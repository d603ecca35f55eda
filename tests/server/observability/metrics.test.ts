/**
 * GET /metrics: refused without the right bearer token and absent without METRICS_TOKEN; after a
 * real Run now against the Graph simulator and a real campaign sync, the scrape shows the engine
 * run and its action, the Graph calls and the rate-limit wait the client made, the sync and its
 * age, and the route-pattern latency histogram.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphClient } from '../../../server/adplatform/graphClient';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import { startSyncJob } from '../../../server/campaigns/job';
import { CampaignSync } from '../../../server/campaigns/sync';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { quietLog, seedAccount, seedRule, startFrozenSimulator } from '../run/support';

const TOKEN = 'metrics-token-for-tests';

/** The sum of the series of a Prometheus text exposition that carry these labels (0 when none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      sum += match[3] === '+Inf' ? Infinity : Number(match[3]);
  }
  return sum;
}

eachDatabase((engine) => {
  describe(`metrics on ${engine}`, () => {
    let api: TestApi;
    let sim: Simulator;
    let client: GraphClient;
    let editor: TestUser;
    let ruleId: number;

    beforeAll(async () => {
      const world = await startFrozenSimulator();
      sim = world.sim;
      client = world.client;
      api = await createTestApi(engine, { config: { metricsToken: TOKEN } });
      api.app.ruleEngine = createRuleEngineService({ db: api.dbh.db, client, log: quietLog });
      await seedAccount(api.dbh.db, world.home);
      ruleId = (
        await seedRule(api.dbh.db, world.home.adAccountId, {
          contains: ['SS-W'],
          tasks: { spend_cpl_no_leads: { spend: '40' } },
        })
      ).rule.id;
      editor = await api.userWith(['create_update_rules', 'read_rules']);
    });
    afterAll(async () => {
      await api.close();
      await sim.close();
    });

    const scrape = async () => {
      const response = await api.request(null, {
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      return response.body;
    };

    it('refuses a scrape without the token or with a wrong one', async () => {
      const without = await api.request(null, { method: 'GET', url: '/metrics' });
      expect(without.statusCode).toBe(401);
      expect(without.json()).toEqual({ detail: 'A valid metrics token is required.' });
      const wrong = await api.request(null, {
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}x` },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).not.toContain('adrules_');
    });

    it('says the campaign sync never succeeded before the first one', async () => {
      expect(sample(await scrape(), 'adrules_campaign_sync_age_seconds')).toBe(Infinity);
    });

    it('counts a rule run, its action, the Graph calls, a rate-limit wait, and the sync', async () => {
      const before = await scrape();
      // The first call of the run is refused once for the rate limit; the client waits and retries.
      sim.addFault({ kind: 'rate_limit', code: 17, match: { path: 'campaigns' } });
      const run = await api.request(editor.token, { method: 'POST', url: `/api/rules/${ruleId}/run_now/` });
      expect(run.json()).toMatchObject({ status: 'done', turned_off: 1, failed: 0 });

      const job = startSyncJob(api.dbh.db, new CampaignSync(api.dbh.db, client), { intervalMinutes: 60 });
      await job.stop(); // its first run, started at once, has finished
      expect(await job.runOnce({ force: true })).toMatchObject({ failures: [] });

      const after = await scrape();
      const moved = (name: string, labels: Record<string, string> = {}) =>
        sample(after, name, labels) - sample(before, name, labels);
      expect(moved('adrules_engine_runs_total', { kind: 'manual', outcome: 'done' })).toBe(1);
      expect(moved('adrules_engine_actions_total', { action: 'turn_off_ad', result: 'done' })).toBe(1);
      expect(moved('adrules_graph_api_calls_total', { outcome: 'ok', status: '200' })).toBeGreaterThan(3);
      expect(moved('adrules_graph_api_calls_total', { outcome: 'error' })).toBe(1);
      expect(moved('adrules_graph_rate_limit_waits_total', { reason: 'refused' })).toBe(1);
      expect(moved('adrules_campaign_syncs_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
      expect(after).toMatch(/^adrules_engine_held_runs_total 0$/m);

      const age = sample(after, 'adrules_campaign_sync_age_seconds');
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(600);
    });

    it('times requests per route pattern, not per URL', async () => {
      const text = await scrape();
      const series = { method: 'POST', route: '/api/rules/:id/run_now/', status_code: '200' };
      expect(sample(text, 'http_request_duration_seconds_count', series)).toBe(1);
      expect(text).not.toContain(`/api/rules/${ruleId}/`);
    });
  });
});

describe('metrics without METRICS_TOKEN', () => {
  it('has no /metrics endpoint', async () => {
    const api = await createTestApi('pglite');
    try {
      const response = await api.request(null, {
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.' });
    } finally {
      await api.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacktestJob } from '../../../shared/backtest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { waitUntil } from '../../support/waitUntil';
import { seedAccount, seedRule } from '../run/support';
import { readAt, ruleBody } from './support';

const ended = <Job extends Pick<BacktestJob, 'state'>>(read: () => Promise<Job>) =>
  waitUntil(read, 'the backtest to end', { until: (job) => job.state !== 'running', intervalMs: 20 });

eachDatabase((engine) => {
  describe(`backtest API on ${engine}`, () => {
    let api: TestApi;
    let editor: TestUser;
    let other: TestUser;
    let folderId: number;
    let emptyFolderId: number;
    const tasks = { spend_cpl_no_leads: { spend: '50' } };

    beforeAll(async () => {
      api = await createTestApi(engine);
      editor = await api.userWith(['read_rules']);
      other = await api.userWith(['read_rules']);
      const account = await seedAccount(api.dbh.db);
      folderId = (await seedRule(api.dbh.db, account.adAccountId)).folder.id;
      emptyFolderId = (
        await seedRule(api.dbh.db, (await seedAccount(api.dbh.db, { accountName: 'Quiet Ltd' })).adAccountId)
      ).folder.id;
      // An hour ago and two hours ago, as the engine would have read them.
      const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
      for (const [i, spend] of [
        [2, 40],
        [1, 70],
      ] as const)
        await readAt(api.dbh.db, account.adAccountId, new Date(hour - i * 3_600_000 + 5_000).toISOString(), [
          { id: 'dud', spend },
          { id: 'good1', spend, leads: 4 },
          { id: 'good2', spend, leads: 5 },
        ]);
    });
    afterAll(() => api?.close());

    const start = (user: TestUser | null, payload: Record<string, unknown>) =>
      api.request(user?.token ?? null, { method: 'POST', url: '/api/backtests/', payload });

    it('runs an unsaved rule body as a job: progress, then the table of pauses', async () => {
      const started = await start(editor, { folder: folderId, days: 7, rule: ruleBody(tasks) });
      expect(started.statusCode).toBe(202);
      expect(started.json()).toMatchObject({ state: 'running', result: null });
      const job = await ended(async () =>
        (await api.request(editor.token, { method: 'GET', url: `/api/backtests/${started.json().id}/` })).json(),
      );
      expect(job.state).toBe('done');
      expect(job.progress.done).toBe(job.progress.total);
      expect(job.progress.total).toBe(7 * 24);
      expect(job.result.results).toEqual([
        expect.objectContaining({
          object_id: 'dud',
          reason: expect.objectContaining({ Spend: '$70.00 > $50.00' }),
          verdict: 'stopped_waste',
        }),
      ]);
      // The numbers read in the engine's words and order, as the table shows them.
      expect(Object.keys(job.result.results[0].reason).filter((k) => k === 'Spend' || k === 'Leads')).toEqual([
        'Spend',
        'Leads',
      ]);
      expect(job.result).toMatchObject({
        totals: { pauses: 1, spend_stopped: 0, leads_lost: 0 },
        results_count: 1,
        results_listed: 1,
      });
      // Someone else can neither see it nor page through its pauses.
      for (const url of [`/api/backtests/${started.json().id}/`, `/api/backtests/${started.json().id}/pauses/`])
        expect((await api.request(other.token, { method: 'GET', url })).json()).toEqual({ detail: 'Not found.' });
      const pauses = await api.request(editor.token, {
        method: 'GET',
        url: `/api/backtests/${started.json().id}/pauses/?offset=100`,
      });
      expect(pauses.json()).toMatchObject({ count: 1, results: [] });
      // What is not a job id names no job.
      for (const id of ['nope', '%00', `${started.json().id}0`])
        expect((await api.request(editor.token, { method: 'GET', url: `/api/backtests/${id}/` })).statusCode).toBe(404);
    });

    it('cancels a job: it ends cancelled, without a result', async () => {
      const started = await start(editor, { folder: folderId, days: 30, rule: ruleBody(tasks) });
      const answer = await api.request(editor.token, { method: 'DELETE', url: `/api/backtests/${started.json().id}/` });
      expect(answer.statusCode).toBe(200);
      const job = await ended(async () =>
        (await api.request(editor.token, { method: 'GET', url: `/api/backtests/${started.json().id}/` })).json(),
      );
      // A 30-day replay of three ads may finish before the cancel arrives; otherwise it stops.
      expect(job.state === 'cancelled' ? job.result : job.result.totals.pauses).toBe(
        job.state === 'cancelled' ? null : 1,
      );
    });

    it('answers bad requests with a clear message', async () => {
      const long = await start(editor, { folder: folderId, days: 400, rule: ruleBody(tasks) });
      expect(long.statusCode).toBe(400);
      expect(long.json()).toEqual({ days: ['A backtest covers 1 to 30 days of history (7, 14 or 30 in the editor).'] });

      const noTasks = await start(editor, { folder: folderId, days: 7, rule: ruleBody({}) });
      expect(noTasks.statusCode).toBe(400);
      expect(noTasks.json()).toEqual({
        rule_task: { non_field_errors: ['Turn on at least one task to try the rule on history.'] },
      });

      const noHistory = await start(editor, { folder: emptyFolderId, days: 7, rule: ruleBody(tasks) });
      expect(noHistory.statusCode).toBe(400);
      expect(noHistory.json().detail).toMatch(/^There is no metric history for the ad account "Quiet Ltd" yet\./);

      expect((await start(editor, { folder: 999_999, days: 7, rule: ruleBody(tasks) })).statusCode).toBe(404);
      expect((await start(editor, { folder: folderId, days: 7 })).statusCode).toBe(400);
      // An id past the database's integer is refused, not a 500 (the routes' fuzzing found one in the history fill).
      const pastInteger = await start(editor, { folder: 2_147_483_648, days: 7, rule: ruleBody(tasks) });
      expect(pastInteger.statusCode).toBe(400);
      expect(pastInteger.json()).toHaveProperty('folder');
    });

    it('needs a signed-in user who may read rules', async () => {
      expect((await start(null, { folder: folderId, days: 7, rule: ruleBody(tasks) })).statusCode).toBe(401);
      const stranger = await api.userWith([]);
      expect((await start(stranger, { folder: folderId, days: 7, rule: ruleBody(tasks) })).statusCode).toBe(403);
      const coverage = await api.request(editor.token, { method: 'GET', url: `/api/history/?folder=${folderId}` });
      expect(coverage.json()).toMatchObject({ ads: 3, readings: 6, settled_readings: 0 });
      expect(
        (await api.request(editor.token, { method: 'POST', url: '/api/history/fill/', payload: { folder: folderId } }))
          .statusCode,
      ).toBe(403);
    });
  });
});

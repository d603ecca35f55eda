import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BacktestJobs, type JobControl } from '../../../server/backtest/jobs';
import { createBacktestJobStore, KEPT_PER_OWNER, type JobView } from '../../../server/backtest/jobStore';
import { MAX_LISTED_PAUSES } from '../../../server/backtest/keptResult';
import { replay, ReplayCancelled } from '../../../server/backtest/replay';
import type { BacktestResult } from '../../../server/backtest/service';
import type { DbHandle } from '../../../server/db/client';
import { users } from '../../../server/db/schema/index';
import { resultRows } from '../../../server/http/pagination';
import { eachDatabase, freshDatabase } from '../../support/db';
import { waitUntil } from '../../support/waitUntil';
import { everyHour, fakeResult } from './support';

/** Work that reports progress and runs until it is cancelled. */
const untilCancelled = (control: JobControl) =>
  new Promise<BacktestResult>((_resolve, reject) => {
    control.progress(3, 10);
    control.signal.addEventListener('abort', () => reject(new Error('stopped')));
  });

const ended = (jobs: BacktestJobs, owner: number, id: string): Promise<JobView> =>
  waitUntil(() => jobs.get(owner, id), `backtest ${id} to end`, {
    until: (job) => job.state !== 'running',
    intervalMs: 20,
  });

eachDatabase((engine) => {
  describe(`backtest jobs on ${engine}`, () => {
    let dbh: DbHandle;
    let ana: number;
    let ben: number;
    let cy: number;
    const processes: BacktestJobs[] = [];
    const process = () => {
      const jobs = new BacktestJobs(createBacktestJobStore(dbh.db));
      processes.push(jobs);
      return jobs;
    };

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const people = await dbh.db
        .insert(users)
        .values(
          ['ana', 'ben', 'cy'].map((name) => ({ email: `${name}@example.com`, passwordHash: 'x', firstName: name })),
        )
        .returning({ id: users.id });
      [ana, ben, cy] = people.map((p) => p.id) as [number, number, number];
    });
    afterAll(async () => {
      await Promise.all(processes.map((jobs) => jobs.close()));
      await dbh?.close();
    });

    it('shows progress, cancels on request, and keeps each job to its owner', async () => {
      const jobs = process();
      const job = await jobs.start(ana, untilCancelled);
      await expect.poll(async () => (await jobs.get(ana, job.id)).progress).toEqual({ done: 3, total: 10 });
      expect(await jobs.get(ana, job.id)).toMatchObject({ state: 'running', result: null });
      await expect(jobs.get(ben, job.id)).rejects.toThrow('Not found.');
      await expect(jobs.cancel(ben, job.id)).rejects.toThrow('Not found.');
      await jobs.cancel(ana, job.id);
      expect(await ended(jobs, ana, job.id)).toMatchObject({ state: 'cancelled', result: null, error: null });
    });

    it('answers the polling and the cancel from another process than the one running the job', async () => {
      const runner = process();
      const other = process();
      const job = await runner.start(ana, untilCancelled);
      await expect.poll(async () => (await other.get(ana, job.id)).progress).toEqual({ done: 3, total: 10 });
      await other.cancel(ana, job.id);
      expect(await ended(other, ana, job.id)).toMatchObject({ state: 'cancelled' });
    });

    it('tells a failed job’s error, and refuses a third running job of one person', async () => {
      const jobs = process();
      const failed = await jobs.start(ana, async () => {
        throw new Error('history unreadable');
      });
      expect(await ended(jobs, ana, failed.id)).toMatchObject({ state: 'failed', error: 'history unreadable' });
      const forever = untilCancelled;
      const first = await jobs.start(ana, forever);
      // Another process counts the same jobs.
      await process().start(ana, forever);
      await expect(jobs.start(ana, forever)).rejects.toMatchObject({
        statusCode: 429,
        body: { detail: 'Two backtests are already running for you: wait for one or cancel it.' },
      });
      expect((await jobs.start(ben, forever)).state).toBe('running');
      // Jobs whose process stopped (no heartbeat for a minute) end failed and no longer count.
      await dbh.db.execute(sql`update backtest_jobs set heartbeat_at = now() - interval '2 minutes'
        where owner_id = ${ana} and state = 'running'`);
      expect(await process().get(ana, first.id)).toMatchObject({
        state: 'failed',
        error: 'The server running this backtest stopped before it finished. Run it again.',
      });
      expect((await jobs.start(ana, forever)).state).toBe('running');
    });

    it('refuses a start while its process runs as many backtests as it may', async () => {
      const jobs = new BacktestJobs(createBacktestJobStore(dbh.db), { maxRunning: 1 });
      processes.push(jobs);
      const running = await jobs.start(cy, untilCancelled);
      await expect(jobs.start(ben, untilCancelled)).rejects.toMatchObject({
        statusCode: 429,
        body: { detail: 'The server is busy with other backtests. Try again in a minute.' },
      });
      await jobs.cancel(cy, running.id);
      await ended(jobs, cy, running.id);
      const next = await jobs.start(ben, async () => fakeResult(1));
      expect((await ended(jobs, ben, next.id)).state).toBe('done');
    });

    it('keeps a result’s totals and its first pauses, paged, and only the newest few per person', async () => {
      const jobs = process();
      const big = await jobs.start(ben, async () => fakeResult(MAX_LISTED_PAUSES + 500));
      const done = await ended(jobs, ben, big.id);
      expect(done.result).toMatchObject({
        totals: { pauses: MAX_LISTED_PAUSES + 500 },
        results_count: MAX_LISTED_PAUSES + 500,
        results_listed: MAX_LISTED_PAUSES,
      });
      expect(done.result!.results.map((p) => p.object_id)).toEqual(Array.from({ length: 100 }, (_, i) => `ad_${i}`));
      const last = await jobs.pauses(ben, big.id, { limit: 100, offset: MAX_LISTED_PAUSES - 50 });
      expect(last.count).toBe(MAX_LISTED_PAUSES);
      expect(last.results.map((p) => p.object_id)).toEqual(
        Array.from({ length: 50 }, (_, i) => `ad_${MAX_LISTED_PAUSES - 50 + i}`),
      );
      await expect(jobs.pauses(ana, big.id, { limit: 100, offset: 0 })).rejects.toThrow('Not found.');

      const later: string[] = [];
      for (let i = 0; i < KEPT_PER_OWNER; i += 1) {
        const job = await jobs.start(ben, async () => fakeResult(1));
        await ended(jobs, ben, job.id);
        later.push(job.id);
      }
      // The oldest gave way to the newest five.
      await expect(jobs.get(ben, big.id)).rejects.toThrow('Not found.');
      for (const id of later) expect((await jobs.get(ben, id)).state).toBe('done');
    });

    it('forgets a finished job 15 minutes after it ended', async () => {
      const jobs = process();
      const job = await jobs.start(cy, async () => fakeResult(3));
      await ended(jobs, cy, job.id);
      await dbh.db.execute(
        sql`update backtest_jobs set finished_at = now() - interval '16 minutes' where id = ${job.id}`,
      );
      await jobs.start(cy, async () => fakeResult(1));
      await expect(jobs.get(cy, job.id)).rejects.toThrow('Not found.');
      const left = await dbh.db.execute(sql`select count(*)::int as n from backtest_pauses where job_id = ${job.id}`);
      expect(resultRows(left)).toEqual([{ n: 0 }]);
    });
  });
});

describe('the replay', () => {
  it('stops between hours once it is cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    const rule = { id: 1, name: 'r', rule_filter: [], rule_task: [], schedule: everyHour(), timezone: 'UTC' };
    const timeline = { adAccountId: 'act_1', startMs: 0, hours: 48, ads: [] };
    await expect(
      replay({ rule, timeline, currency: 'USD', fromMs: 0, toMs: 48 * 3_600_000, signal: abort.signal }),
    ).rejects.toBeInstanceOf(ReplayCancelled);
  });
});

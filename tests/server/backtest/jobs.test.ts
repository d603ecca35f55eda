import { describe, expect, it } from 'vitest';
import { JobRegistry } from '../../../server/backtest/jobs';
import { replay, ReplayCancelled } from '../../../server/backtest/replay';
import { everyHour } from './support';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('backtest jobs', () => {
  it('shows progress, cancels on request, and keeps each job to its owner', async () => {
    const jobs = new JobRegistry<string>();
    const job = jobs.start(
      1,
      (control) =>
        new Promise<string>((resolve, reject) => {
          control.progress(3, 10);
          control.signal.addEventListener('abort', () => reject(new Error('stopped')));
          void resolve;
        }),
    );
    expect(jobs.get(1, job.id)).toMatchObject({ state: 'running', progress: { done: 3, total: 10 } });
    expect(() => jobs.get(2, job.id)).toThrow('Not found.');
    expect(() => jobs.cancel(2, job.id)).toThrow('Not found.');
    jobs.cancel(1, job.id);
    await settle();
    expect(jobs.get(1, job.id)).toMatchObject({ state: 'cancelled', result: null, error: null });
  });

  it('tells a failed job’s error, and refuses a third running job of one person', async () => {
    const jobs = new JobRegistry<string>();
    const failed = jobs.start(1, async () => {
      throw new Error('history unreadable');
    });
    await settle();
    expect(jobs.get(1, failed.id)).toMatchObject({ state: 'failed', error: 'history unreadable' });
    const forever = () => new Promise<string>(() => undefined);
    jobs.start(1, forever);
    jobs.start(1, forever);
    expect(() => jobs.start(1, forever)).toThrow(/already running/);
    expect(jobs.start(2, forever).state).toBe('running');
  });

  it('stops a replay between hours once it is cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    const rule = { id: 1, name: 'r', rule_filter: [], rule_task: [], schedule: everyHour(), timezone: 'UTC' };
    const timeline = { adAccountId: 'act_1', startMs: 0, hours: 48, ads: [] };
    await expect(
      replay({ rule, timeline, currency: 'USD', fromMs: 0, toMs: 48 * 3_600_000, signal: abort.signal }),
    ).rejects.toBeInstanceOf(ReplayCancelled);
  });
});

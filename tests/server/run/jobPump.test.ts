/**
 * The run queue's pump: a job waiting on a slow call holds only its own place (the others finish
 * and are settled around it), no more jobs run at once than allowed, a failed job is retried, and
 * a job still running when the worker stops is failed so that another worker takes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import type { DbHandle } from '../../../server/db/client';
import { startJobPump, type JobPump } from '../../../server/run/jobPump';
import { createBoss } from '../../../server/run/queue';
import { eachDatabase, freshDatabase } from '../../support/db';

interface Work {
  name: string;
}

/** A promise the test resolves by hand: a Graph call that answers when the test says so. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

eachDatabase((engine) => {
  describe(`the run queue's pump on ${engine}`, () => {
    let dbh: DbHandle;
    let boss: PgBoss;
    const errors: unknown[] = [];

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      boss = createBoss(dbh);
      await boss.start();
    });
    afterAll(async () => {
      await boss.stop({ graceful: false });
      await dbh.close();
    });

    const queue = async (name: string) => {
      await boss.createQueue(name, { retryLimit: 1, retryDelay: 60 });
      return name;
    };
    const stateOf = async (name: string, id: string) => (await boss.getJobById(name, id))?.state;

    function pump(name: string, atOnce: number, run: (job: JobWithMetadata<Work>) => Promise<JobResult>): JobPump {
      return startJobPump<Work>({
        boss,
        queue: name,
        atOnce,
        pollingIntervalMs: 100,
        run,
        onError: (e) => errors.push(e),
      });
    }

    it('settles each job as it ends: a slow one holds only its own place, never more at once than allowed', async () => {
      const name = await queue('pump-slow');
      const slowCall = gate();
      let running = 0;
      let most = 0;
      const slow = (await boss.send(name, { name: 'slow' }))!;
      const quick = await Promise.all(Array.from({ length: 8 }, (_, i) => boss.send(name, { name: `quick ${i}` })));
      const pumping = pump(name, 3, async (job) => {
        running += 1;
        most = Math.max(most, running);
        if (job.data.name === 'slow') await slowCall.opened;
        else await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        return { id: job.id, status: 'completed' };
      });

      await expect
        .poll(async () => (await Promise.all(quick.map((id) => stateOf(name, id!)))).every((s) => s === 'completed'), {
          timeout: 20_000,
        })
        .toBe(true);
      expect(await stateOf(name, slow)).toBe('active');
      slowCall.open();
      await expect.poll(() => stateOf(name, slow), { timeout: 20_000 }).toBe('completed');
      expect(most).toBe(3);
      await pumping.stop(1000);
      expect(errors).toEqual([]);
    });

    it('fails a job whose run failed or threw, so the queue retries it', async () => {
      const name = await queue('pump-failing');
      const pumping = pump(name, 2, async (job) => {
        if (job.data.name === 'throws') throw new Error('the database went away');
        return { id: job.id, status: 'failed', output: { message: 'rule 1: the platform refused' } };
      });
      const failing = (await boss.send(name, { name: 'fails' }))!;
      const throwing = (await boss.send(name, { name: 'throws' }))!;
      await expect.poll(() => stateOf(name, failing), { timeout: 20_000 }).toBe('retry');
      await expect.poll(() => stateOf(name, throwing), { timeout: 20_000 }).toBe('retry');
      expect((await boss.getJobById(name, throwing))?.output).toEqual({ message: 'the database went away' });
      await pumping.stop(1000);
    });

    it('fails what is still running when the worker stops, for another worker to take', async () => {
      const name = await queue('pump-stopping');
      const never = gate();
      const started = gate();
      const pumping = pump(name, 2, async (job) => {
        started.open();
        await never.opened;
        return { id: job.id, status: 'completed' };
      });
      const id = (await boss.send(name, { name: 'endless' }))!;
      await started.opened;
      await pumping.stop(50);
      expect(await stateOf(name, id)).toBe('retry');
      never.open();
    });
  });
});

/**
 * Keeps up to `atOnce` jobs of a queue running in this process, each settled the moment it ends:
 * a job that waits on a slow Graph call holds only its own place, never a batch of others (a
 * pg-boss batch handler settles its jobs together, so each batch lasted as long as its slowest
 * account). While the queue has a backlog the free places are refilled as they come free; when it
 * is empty the pump looks again every `pollingIntervalMs`.
 *
 * While a job runs the pump renews it (pg-boss's heartbeat, one statement for all of them). A job
 * still running when the pump stops (after `stop`'s grace period) is failed, so pg-boss retries it
 * elsewhere; a process that dies stops renewing its jobs, and pg-boss fails and retries them the same way.
 */
import type { JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import { errorMessage } from '../errorMessage';
import { DEFAULT_HEARTBEAT_SECONDS } from './queue';

export interface JobPumpOptions<T> {
  boss: PgBoss;
  queue: string;
  /** Jobs running at once in this process. */
  atOnce: number;
  pollingIntervalMs: number;
  run: (job: JobWithMetadata<T>) => Promise<JobResult>;
  onError: (error: unknown) => void;
  /** How often running jobs are renewed: under the queue's heartbeatSeconds (half of it, as pg-boss's work()). */
  heartbeatMs?: number;
}

export interface JobPump {
  /** Takes no more jobs, waits up to `graceMs` for those running, then fails the rest. */
  stop(graceMs: number): Promise<void>;
  /** Looks at the queue now rather than at the next poll (this process just queued a job). */
  nudge(): void;
}

/** True when `promise` settles within `ms`, false otherwise (the timer does not outlive it). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function startJobPump<T>(options: JobPumpOptions<T>): JobPump {
  const { boss, queue, atOnce, pollingIntervalMs } = options;
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let endPolling: () => void = () => undefined;
  const stopping = new Promise<void>((resolve) => {
    endPolling = resolve;
  });
  /** Resolves when a running job settles; renewed each time. */
  let freed!: Promise<void>;
  let free: () => void = () => undefined;
  const renewFreed = () => {
    freed = new Promise<void>((resolve) => {
      free = resolve;
    });
  };
  renewFreed();
  let nudged = false;
  let wake: () => void = () => undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function settle(job: JobWithMetadata<T>): Promise<void> {
    let result: JobResult;
    try {
      result = await options.run(job);
    } catch (error) {
      result = { id: job.id, status: 'failed', output: { message: errorMessage(error) } };
    }
    try {
      if (result.status === 'completed') await boss.complete(queue, job.id, result.output ?? null);
      else await boss.fail(queue, job.id, result.output ?? null);
    } catch (error) {
      options.onError(error); // left active: pg-boss expires it and retries it
    }
  }

  function start(job: JobWithMetadata<T>) {
    const settled = settle(job).finally(() => {
      running.delete(job.id);
      free();
      renewFreed();
    });
    running.set(job.id, settled);
  }

  const heartbeat = setInterval(
    () => {
      const ids = [...running.keys()];
      if (ids.length) boss.touch(queue, ids).catch(options.onError);
    },
    options.heartbeatMs ?? (DEFAULT_HEARTBEAT_SECONDS * 1000) / 2,
  );
  heartbeat.unref();

  // Refilling one place at a time would be a fetch per job; a tenth of the places at once keeps
  // fetches few while a backlog lasts, and at most that many places idle.
  const refillAt = Math.max(1, Math.floor(atOnce / 10));

  const loop = (async () => {
    let backlog = false;
    while (!stopped) {
      const room = atOnce - running.size;
      if (room >= refillAt) {
        try {
          const jobs = await boss.fetch<T>(queue, { batchSize: room, includeMetadata: true });
          for (const job of jobs) start(job);
          backlog = jobs.length === room;
        } catch (error) {
          options.onError(error);
          backlog = false;
        }
      }
      if (stopped) break;
      // A backlog: fetch again as soon as enough places are free. None: look again after the poll.
      if (!backlog) {
        if (!nudged) await Promise.race([stopping, pause(pollingIntervalMs)]);
        nudged = false;
      } else if (atOnce - running.size < refillAt) await Promise.race([stopping, freed]);
    }
  })();

  return {
    nudge() {
      nudged = true;
      wake();
    },
    async stop(graceMs) {
      stopped = true;
      endPolling();
      await loop;
      const settled = await within(Promise.all(running.values()), graceMs);
      clearInterval(heartbeat);
      if (settled) return;
      const left = [...running.keys()];
      if (left.length)
        await boss.fail(queue, left, { message: 'the worker stopped while the run went on' }).catch(options.onError);
    },
  };
}

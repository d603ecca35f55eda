/**
 * Long work a person waits for (a backtest): started, watched (progress) and cancelled by the one
 * who started it. The work runs in the process that took the start; its state and result live in
 * the database (jobStore.ts), so any API process answers the polling and a finished result costs
 * no memory here. This process keeps only each running job's AbortController and last progress,
 * which it writes every PROGRESS_EVERY_MS (the job's heartbeat), reading back a cancel another
 * process took.
 */
import { randomUUID } from 'node:crypto';
import { errorMessage } from '../errorMessage';
import { ApiError, notFound } from '../http/errors';
import type { PageRequest, Slice } from '../http/pagination';
import type { BacktestPause } from '../../shared/backtest';
import type { BacktestJobStore, FinishedJob, JobView } from './jobStore';
import { keptResult } from './keptResult';
import type { BacktestResult } from './service';

/** Backtests one process runs at once, whoever started them: each holds an account's history while it runs. */
export const MAX_RUNNING_IN_PROCESS = 8;
const PROGRESS_EVERY_MS = 500;

export interface JobControl {
  signal: AbortSignal;
  progress(done: number, total: number): void;
}

interface Running {
  abort: AbortController;
  progress: { done: number; total: number };
  writing: boolean;
  settled: Promise<void>;
}

export class BacktestJobs {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: BacktestJobStore,
    private readonly options: { maxRunning?: number; onError?: (error: unknown) => void } = {},
  ) {}

  /** Starts `work`; refuses (429) when this process or the person has too many running already. */
  async start(ownerId: number, work: (control: JobControl) => Promise<BacktestResult>): Promise<JobView> {
    if (this.running.size >= (this.options.maxRunning ?? MAX_RUNNING_IN_PROCESS))
      throw new ApiError(429, { detail: 'The server is busy with other backtests. Try again in a minute.' });
    const id = randomUUID();
    const job: Running = {
      abort: new AbortController(),
      progress: { done: 0, total: 0 },
      writing: false,
      settled: Promise.resolve(),
    };
    // Held before the database answers, so concurrent starts count it.
    this.running.set(id, job);
    try {
      if (!(await this.store.open(ownerId, id)))
        throw new ApiError(429, { detail: 'Two backtests are already running for you: wait for one or cancel it.' });
    } catch (error) {
      this.running.delete(id);
      throw error;
    }
    this.keepWritingProgress();
    job.settled = work({
      signal: job.abort.signal,
      progress: (done, total) => {
        job.progress = { done, total };
      },
    })
      .then(
        (result): FinishedJob => ({ state: 'done', progress: job.progress, ...keptResult(result) }),
        (error: unknown): FinishedJob =>
          job.abort.signal.aborted
            ? { state: 'cancelled', progress: job.progress }
            : { state: 'failed', progress: job.progress, error: errorMessage(error) },
      )
      .then((outcome) => this.store.finish(id, outcome))
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.running.delete(id);
        if (!this.running.size) this.stopWritingProgress();
      });
    return { id, state: 'running', progress: { ...job.progress }, result: null, error: null };
  }

  async get(ownerId: number, id: string): Promise<JobView> {
    return (await this.store.view(ownerId, id)) ?? Promise.reject(notFound());
  }

  async pauses(ownerId: number, id: string, page: PageRequest): Promise<Slice<BacktestPause>> {
    return (await this.store.pauses(ownerId, id, page)) ?? Promise.reject(notFound());
  }

  /** Stops the job between scheduled hours: at once when it runs here, else at its process's next progress write. */
  async cancel(ownerId: number, id: string): Promise<JobView> {
    if (!(await this.store.requestCancel(ownerId, id))) throw notFound();
    this.running.get(id)?.abort.abort();
    return this.get(ownerId, id);
  }

  /** Cancels the jobs running here and waits until each has written how it ended. */
  async close(): Promise<void> {
    const settling = [...this.running.values()].map((job) => {
      job.abort.abort();
      return job.settled;
    });
    await Promise.all(settling);
    this.stopWritingProgress();
  }

  private keepWritingProgress() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const [id, job] of this.running) void this.writeProgress(id, job);
    }, PROGRESS_EVERY_MS);
    this.timer.unref();
  }

  private stopWritingProgress() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async writeProgress(id: string, job: Running) {
    if (job.writing) return;
    job.writing = true;
    try {
      const { cancelRequested } = await this.store.progress(id, job.progress.done, job.progress.total);
      if (cancelRequested) job.abort.abort();
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      job.writing = false;
    }
  }
}

/**
 * Long work a person waits for (a backtest): started, watched (progress) and cancelled by the one
 * who started it, in this process's memory. A finished job's answer is kept a while for the screen
 * to fetch, then forgotten.
 */
import { randomUUID } from 'node:crypto';
import { errorMessage } from '../errorMessage';
import { ApiError, notFound } from '../http/errors';

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

export interface JobView<R> {
  id: string;
  state: JobState;
  progress: { done: number; total: number };
  result: R | null;
  error: string | null;
}

interface Job<R> extends JobView<R> {
  ownerId: number;
  abort: AbortController;
  finishedAt: number | null;
}

export interface JobControl {
  signal: AbortSignal;
  progress(done: number, total: number): void;
}

export class JobRegistry<R> {
  private readonly jobs = new Map<string, Job<R>>();

  constructor(private readonly options: { keepMs?: number; maxRunningPerOwner?: number; now?: () => number } = {}) {}

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  /** Starts `work`; refuses (429) an owner who has too many running already. */
  start(ownerId: number, work: (control: JobControl) => Promise<R>): JobView<R> {
    this.forgetOld();
    const running = [...this.jobs.values()].filter((j) => j.ownerId === ownerId && j.state === 'running').length;
    if (running >= (this.options.maxRunningPerOwner ?? 2))
      throw new ApiError(429, { detail: 'Two backtests are already running for you: wait for one or cancel it.' });
    const job: Job<R> = {
      id: randomUUID(),
      ownerId,
      state: 'running',
      progress: { done: 0, total: 0 },
      result: null,
      error: null,
      abort: new AbortController(),
      finishedAt: null,
    };
    this.jobs.set(job.id, job);
    const control: JobControl = {
      signal: job.abort.signal,
      progress: (done, total) => {
        job.progress = { done, total };
      },
    };
    void work(control).then(
      (result) => this.finish(job, 'done', { result }),
      (error: unknown) =>
        this.finish(job, job.abort.signal.aborted ? 'cancelled' : 'failed', {
          error: job.abort.signal.aborted ? null : errorMessage(error),
        }),
    );
    return this.view(job);
  }

  get(ownerId: number, id: string): JobView<R> {
    return this.view(this.own(ownerId, id));
  }

  cancel(ownerId: number, id: string): JobView<R> {
    const job = this.own(ownerId, id);
    if (job.state === 'running') job.abort.abort();
    return this.view(job);
  }

  private finish(job: Job<R>, state: JobState, outcome: { result?: R; error?: string | null }) {
    if (job.state !== 'running') return;
    job.state = state;
    job.result = outcome.result ?? null;
    job.error = outcome.error ?? null;
    job.finishedAt = this.now();
  }

  private own(ownerId: number, id: string): Job<R> {
    const job = this.jobs.get(id);
    if (!job || job.ownerId !== ownerId) throw notFound();
    return job;
  }

  private view({ id, state, progress, result, error }: Job<R>): JobView<R> {
    return { id, state, progress: { ...progress }, result, error };
  }

  private forgetOld() {
    const keepMs = this.options.keepMs ?? 15 * 60_000;
    for (const [id, job] of this.jobs)
      if (job.finishedAt !== null && this.now() - job.finishedAt > keepMs) this.jobs.delete(id);
  }
}

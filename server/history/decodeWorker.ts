/**
 * The history's text decoded on a worker thread of its own (historyTextWorker.mjs), started on first
 * use and never holding the process open: a fleet's preview decodes one batch there while this
 * thread replays the one before.
 */
import { Worker } from 'node:worker_threads';
import type { DecodedAd } from './historyText.mjs';

type Pending = { resolve: (ads: DecodedAd[]) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(error: Error) {
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
  worker = null;
}

function started(): Worker {
  if (worker) return worker;
  const made = new Worker(new URL('./historyTextWorker.mjs', import.meta.url), {
    // Plain JavaScript: no need for the TypeScript loader (tsx) this thread may run under.
    execArgv: [],
  });
  made.unref();
  made.on('message', ({ id, ads, error }: { id: number; ads?: DecodedAd[]; error?: string }) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (!waiting) return;
    if (error !== undefined) waiting.reject(new Error(`Decoding the history failed: ${error}`));
    else waiting.resolve(ads!);
    if (!pending.size) made.unref();
  });
  made.on('error', failAll);
  made.on('exit', () => failAll(new Error('The history decoding worker stopped')));
  worker = made;
  return made;
}

/** The ads of these texts, each one buffer (historyText.mjs: decodeHistoryTexts), decoded off this thread. */
export function decodeInWorker(
  texts: string[],
  metricCount: number,
  startMs: number,
  hours: number,
): Promise<DecodedAd[]> {
  const target = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Held open while it has work: a preview awaiting its answer is not cut off by the process exiting.
    target.ref();
    target.postMessage({ id, texts, metricCount, startMs, hours });
  });
}

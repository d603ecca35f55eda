/**
 * The embedded database in a worker thread (started by pgliteClient.ts): PGlite's WASM runs here, so
 * a slow query never blocks the HTTP server's event loop. Plain JavaScript so that it loads the same
 * under tsx, vitest and `npm start`, with no TypeScript loader in the worker.
 *
 * Messages in: `{ id, op, ... }`, answered by `{ id, ok: true, result }` or `{ id, ok: false, error }`.
 * Out of turn: `{ notify: listenId, payload }` for NOTIFY on a channel the main thread listens to.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sendWellFormedText } from './wellFormedText.mjs';

const { dataDir, loadDataDir, pgliteWasmModule, initdbWasmModule } = workerData;

/** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, decide: (commit: boolean) => void, done: Promise<void> }>} */
const transactions = new Map();
/** @type {Map<number, () => Promise<void>>} */
const listeners = new Map();
const ROLLBACK = Symbol('rollback requested');

const keepValue = (value) => value;

/** PGlite's options for one query: the types the main thread parses itself arrive as text. */
function queryOptions(rowMode, rawTypes) {
  const options = {};
  if (rowMode) options.rowMode = rowMode;
  if (rawTypes?.length) options.parsers = Object.fromEntries(rawTypes.map((type) => [type, keepValue]));
  return options;
}

/** The client a statement runs on: the open transaction it names, or the database. */
function target(txId) {
  if (txId === undefined) return pg;
  const open = transactions.get(txId);
  if (!open) throw new Error(`Transaction ${txId} is not open`);
  return open.tx;
}

/**
 * Opens a transaction and holds it until the main thread commits or rolls it back. Answers once
 * BEGIN has run (or failed).
 */
function begin(txId) {
  return new Promise((begun, failed) => {
    let started = false;
    let decide;
    const decided = new Promise((resolve) => {
      decide = resolve;
    });
    const done = pg
      .transaction(async (tx) => {
        started = true;
        transactions.set(txId, { tx, decide, done });
        begun();
        if (!(await decided)) throw ROLLBACK;
      })
      .catch((error) => {
        if (error !== ROLLBACK) throw error;
      })
      .finally(() => transactions.delete(txId));
    done.catch((error) => {
      if (!started) failed(error); // BEGIN itself failed
    });
  });
}

async function finish(txId, commit) {
  const open = transactions.get(txId);
  if (!open) throw new Error(`Transaction ${txId} is not open`);
  open.decide(commit);
  await open.done;
}

const operations = {
  query: ({ sql, params, rowMode, rawTypes, txId }) => target(txId).query(sql, params, queryOptions(rowMode, rawTypes)),
  exec: ({ sql, txId }) => target(txId).exec(sql),
  begin: ({ txId }) => begin(txId),
  commit: ({ txId }) => finish(txId, true),
  rollback: ({ txId }) => finish(txId, false),
  listen: async ({ listenId, channel }) => {
    const unlisten = await pg.listen(channel, (payload) => parentPort.postMessage({ notify: listenId, payload }));
    listeners.set(listenId, unlisten);
  },
  unlisten: async ({ listenId }) => {
    const unlisten = listeners.get(listenId);
    listeners.delete(listenId);
    if (unlisten && !pg.closed) await unlisten();
  },
  // Between transactions: one the main thread holds open (beginTransaction) finishes first, so a
  // dump never catches half of one.
  dumpDataDir: async ({ compression }) => {
    const dump = await pg.transaction(() => pg.dumpDataDir(compression));
    return new Uint8Array(await dump.arrayBuffer());
  },
  close: async () => {
    if (!pg.closed) await pg.close();
  },
};

/**
 * An error as plain data: its message and every field PostgreSQL reported (code, detail,
 * constraint …); functions and objects that cannot be cloned stay behind.
 */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** Transferred, not copied: a dump can be large. */
function transferList(result) {
  return result instanceof Uint8Array ? [result.buffer] : [];
}

let pg;
try {
  pg = await PGlite.create(dataDir, {
    // pg_trgm: the trigram indexes behind "contains" searches (campaign names, the Log).
    extensions: { pg_trgm },
    ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    ...(initdbWasmModule ? { initdbWasmModule } : {}),
  });
  sendWellFormedText(pg);
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: plainError(error) });
}

parentPort.on('message', async (message) => {
  const { id, op } = message;
  try {
    const result = await operations[op](message);
    parentPort.postMessage({ id, ok: true, result }, transferList(result));
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: plainError(error) });
  }
});

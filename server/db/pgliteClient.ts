/**
 * PGlite in a worker thread (pgliteWorker.mjs), seen from the main thread as a PGlite client: the
 * part of PGlite's interface drizzle-orm/pglite, the migrator, pg-boss and client.ts use (query,
 * exec, transaction, listen, dumpDataDir, close). The main thread only sends statements and
 * receives rows (structured clone: Date, Uint8Array and bigint arrive as they left), so the HTTP
 * server keeps answering while the database works.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';

interface PlainError {
  name?: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: PlainError };
type Notification = { notify: number; payload: string };
type Started = { ready: true } | { ready: false; error: PlainError };

/** The worker's error, rebuilt with PostgreSQL's fields (code, detail, constraint …) on it. */
function rebuildError(plain: PlainError): Error {
  const error = Object.assign(new Error(plain.message), plain.fields);
  if (plain.name) error.name = plain.name;
  if (plain.stack) error.stack = plain.stack;
  return error;
}

const require = createRequire(import.meta.url);
/** A compiled WebAssembly.Module (this project's TypeScript libs declare no WebAssembly global). */
type WasmModule = object;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;
let wasmModules: Promise<{ pgliteWasmModule: WasmModule; initdbWasmModule: WasmModule }> | undefined;

/**
 * PGlite's two WASM modules, compiled once per process and shared by every worker (a compiled
 * module crosses to a worker without being compiled again, as PGlite's own cache would within one
 * thread): tests open a database per file.
 */
function compiledWasm() {
  wasmModules ??= (async () => {
    const dist = (name: string) => path.join(path.dirname(require.resolve('@electric-sql/pglite')), name);
    const [pglite, initdb] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (name) => wasm.compile(await readFile(dist(name)))),
    );
    return { pgliteWasmModule: pglite!, initdbWasmModule: initdb! };
  })();
  return wasmModules;
}

export class PgliteWorkerClient {
  #worker: Worker;
  #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #listeners = new Map<number, (payload: string) => void>();
  #nextId = 0;
  #closed = false;
  #exited: Promise<void>;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: Reply | Notification) => {
      if ('notify' in message) {
        this.#listeners.get(message.notify)?.(message.payload);
        return;
      }
      const waiting = this.#pending.get(message.id);
      if (!waiting) return;
      this.#settled(message.id);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(rebuildError(message.error));
    });
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', (code) => this.#fail(new Error(`The PGlite worker exited (code ${code})`)));
  }

  /** Starts the worker and opens the database in it: a data directory, or a dump loaded into memory. */
  static async create(dataDir: string | undefined, loadDataDir?: Blob | File): Promise<PgliteWorkerClient> {
    const worker = new Worker(new URL('./pgliteWorker.mjs', import.meta.url), {
      workerData: {
        dataDir,
        loadDataDir: loadDataDir ? new Uint8Array(await loadDataDir.arrayBuffer()) : undefined,
        ...(await compiledWasm()),
      },
      // Plain JavaScript: no need for the TypeScript loader (tsx) the main thread may run under.
      execArgv: [],
    });
    const started = await new Promise<Started>((resolve, reject) => {
      const exited = (code: number) => reject(new Error(`The PGlite worker exited (code ${code}) while opening`));
      worker.once('message', (message: Started) => {
        worker.off('error', reject).off('exit', exited);
        resolve(message);
      });
      worker.once('error', reject).once('exit', exited);
    });
    if (!started.ready) {
      await worker.terminate();
      throw rebuildError(started.error);
    }
    // Idle, the worker does not keep the process alive (an open database never did); a statement
    // waiting for its answer does (#request).
    worker.unref();
    return new PgliteWorkerClient(worker);
  }

  get closed(): boolean {
    return this.#closed;
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(query, params, options);
  }

  async exec(query: string): Promise<Results[]> {
    return (await this.#request('exec', { sql: query })) as Results[];
  }

  /**
   * The worker holds the transaction open while `callback` runs here: its statements go to that
   * transaction, and it commits when `callback` resolves, rolls back when it throws.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const txId = this.#nextId++;
    await this.#request('begin', { txId });
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: <R>(query: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return this.#query<R>(query, params, options, txId);
      },
      exec: async (query: string) => {
        open();
        return (await this.#request('exec', { sql: query, txId })) as Results[];
      },
      rollback: async () => {
        open();
        closed = true;
        await this.#request('rollback', { txId });
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.#request('rollback', { txId }).catch(() => undefined);
      }
      throw error;
    }
    if (!closed) {
      closed = true;
      await this.#request('commit', { txId });
    }
    return result;
  }

  /** NOTIFY on `channel` reaches `callback`; the function returned stops it. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listenId = this.#nextId++;
    this.#listeners.set(listenId, callback);
    try {
      await this.#request('listen', { listenId, channel });
    } catch (error) {
      this.#listeners.delete(listenId);
      throw error;
    }
    return async () => {
      this.#listeners.delete(listenId);
      if (!this.#closed) await this.#request('unlisten', { listenId });
    };
  }

  async dumpDataDir(compression?: 'auto' | 'gzip' | 'none'): Promise<Blob> {
    const bytes = (await this.#request('dumpDataDir', { compression })) as Uint8Array<ArrayBuffer>;
    return new Blob([bytes]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#request('close', {});
    this.#closed = true;
    this.#listeners.clear();
    await this.#worker.terminate();
    await this.#exited;
  }

  /**
   * drizzle asks for some types as text (its parsers, for dates, intervals and numeric arrays); a
   * function cannot cross to the worker, so the worker leaves those types unparsed and their
   * parsers run here.
   */
  async #query<T>(query: string, params: unknown[] | undefined, options: QueryOptions = {}, txId?: number) {
    const { rowMode, parsers, ...rest } = options;
    if (Object.values(rest).some((value) => value !== undefined))
      throw new Error(`PGlite worker: unsupported query options ${Object.keys(rest).join(', ')}`);
    const rawTypes = parsers ? Object.keys(parsers).map(Number) : [];
    const result = (await this.#request('query', { sql: query, params, rowMode, rawTypes, txId })) as Results<T>;
    if (parsers && rawTypes.length) applyParsers(result as Results, parsers, rowMode ?? 'object');
    return result;
  }

  #request(op: string, message: Record<string, unknown>): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error('PGlite is closed'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id, op });
    });
  }

  #settled(id: number) {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
  }

  /** The worker died (a crash, or terminate after close): nothing waiting will be answered. */
  #fail(error: Error) {
    this.#closed = true;
    for (const [id, waiting] of this.#pending) {
      this.#settled(id);
      waiting.reject(error);
    }
  }
}

function applyParsers(result: Results, parsers: NonNullable<QueryOptions['parsers']>, rowMode: 'array' | 'object') {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    const key = rowMode === 'array' ? index : field.name;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = parse(value as string);
    }
  });
}

/**
 * The floor of the mixed traffic: the statements the server ran for each request of the sequence
 * (captured through SQL_CAPTURE_FILE), replayed straight on the database with as many connections
 * as there are browsing users, each connection running one request's statements in order, while the
 * writers' statements are replayed once a second each. Its requests per second is what the
 * database alone allows this machine for the same mix: the product is compared with it.
 */
import { open } from 'node:fs/promises';
import pg from 'pg';
import type { Statement } from '../load/floor';
import { POSTGRES_SESSION_OPTIONS } from '../../server/db/client';

/** Reads what was appended to the capture file since the last call. */
export function captureReader(file: string) {
  let position = 0;
  return async (): Promise<Statement[]> => {
    const handle = await open(file, 'r').catch(() => undefined);
    if (!handle) return [];
    try {
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(size - position);
      await handle.read(buffer, 0, buffer.length, position);
      position = size;
      return buffer
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Statement);
    } finally {
      await handle.close();
    }
  };
}

export interface RawReplayResult {
  seconds: number;
  requests: number;
  rps: number;
  writes: number;
}

interface Runner {
  run(statements: Statement[]): Promise<void>;
}

async function replayLoop(
  runners: Runner[],
  reads: Statement[][],
  writes: Statement[][],
  writers: number,
  seconds: number,
): Promise<RawReplayResult> {
  let cursor = 0;
  let requests = 0;
  let written = 0;
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  const reader = async (runner: Runner) => {
    while (performance.now() < stopAt) {
      await runner.run(reads[cursor++ % reads.length]!);
      requests += 1;
    }
  };
  const writer = async (runner: Runner, index: number) => {
    for (let step = 0; performance.now() < stopAt; step += 1) {
      const t = performance.now();
      const list = writes[(index + step * writers) % writes.length];
      if (list) await runner.run(list);
      written += 1;
      const wait = 1000 - (performance.now() - t);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  };
  const readers = runners.slice(0, runners.length - writers);
  await Promise.all([...readers.map(reader), ...runners.slice(readers.length).map((r, i) => writer(r, i))]);
  const elapsed = (performance.now() - started) / 1000;
  return { seconds: elapsed, requests, rps: requests / elapsed, writes: written };
}

/** PostgreSQL: `connections` readers and `writers` writers, each its own connection. */
export async function replayOnPostgres(
  url: string,
  reads: Statement[][],
  writes: Statement[][],
  { connections, writers, seconds }: { connections: number; writers: number; seconds: number },
): Promise<RawReplayResult> {
  const clients = Array.from(
    { length: connections + writers },
    () => new pg.Client({ connectionString: url, options: POSTGRES_SESSION_OPTIONS }),
  );
  await Promise.all(clients.map((c) => c.connect()));
  try {
    const runners = clients.map((client) => ({
      async run(statements: Statement[]) {
        for (const s of statements) await client.query(s.sql, s.params);
      },
    }));
    return await replayLoop(runners, reads, writes, writers, seconds);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** PGlite runs one statement at a time whoever asks: one reader, and the writers between its requests. */
export async function replayOnPglite(
  run: (statements: Statement[]) => Promise<void>,
  reads: Statement[][],
  writes: Statement[][],
  { writers, seconds }: { writers: number; seconds: number },
): Promise<RawReplayResult> {
  const runner = { run };
  return replayLoop([runner, ...Array.from({ length: writers }, () => runner)], reads, writes, writers, seconds);
}

/**
 * `npm start` killed however it dies — SIGKILL included, which it cannot pass on — takes the
 * server with it: the port is free again and no server process is left without a parent.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/waitUntil';
import { type RunningProduct, startProduct } from './support/server';

const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('npm start and its server', () => {
  let product: RunningProduct;
  afterAll(() => product?.stop());

  it('stops the server when npm start is killed with SIGKILL', async () => {
    product = await startProduct();
    const [server] = childrenOf(product.pid());
    expect(server).toBeGreaterThan(0);
    expect(await refused(product.port)).toBe(false);

    process.kill(product.pid(), 'SIGKILL');
    await waitUntil(async () => !alive(server!) && (await refused(product.port)), 'the server to stop', {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    expect(alive(server!)).toBe(false);
    expect(await refused(product.port)).toBe(true);
  });
});

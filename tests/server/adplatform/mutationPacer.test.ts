/** The per-account pacer of writes: never more than 100 a second counted from each batch's answer. */
import { describe, expect, it } from 'vitest';
import { MutationPacer } from '../../../server/adplatform/mutationPacer';

function pacedClock() {
  let now = 0;
  const sleeps: number[] = [];
  const pacer = new MutationPacer(
    async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    100,
    () => now,
  );
  return { pacer, sleeps, advance: (ms: number) => (now += ms), now: () => now };
}

describe('pacing writes to an ad account', () => {
  it('lets 100 through at once and holds the next until a second after the answers came back', async () => {
    const { pacer, sleeps, advance, now } = pacedClock();
    (await pacer.acquire('act_1', 50))();
    advance(200);
    (await pacer.acquire('1', 50))();
    expect(sleeps).toEqual([]);
    const release = await pacer.acquire('act_1', 10);
    expect(now()).toBe(1001); // the first batch's answer + a second
    release();
    expect(sleeps).toEqual([801]);
  });

  it('keeps accounts apart', async () => {
    const { pacer, sleeps } = pacedClock();
    (await pacer.acquire('1', 100))();
    (await pacer.acquire('2', 100))();
    expect(sleeps).toEqual([]);
  });

  it('waits for writes still in flight before counting the second', async () => {
    const { pacer, sleeps, advance } = pacedClock();
    const first = await pacer.acquire('1', 60);
    const second = pacer.acquire('1', 60);
    let started = false;
    void second.then(() => {
      started = true;
    });
    await Promise.resolve();
    expect(started).toBe(false);
    advance(300);
    first();
    (await second)();
    expect(started).toBe(true);
    expect(sleeps).toEqual([1001]);
  });

  it('refuses a batch larger than the limit', async () => {
    await expect(pacedClock().pacer.acquire('1', 101)).rejects.toThrow('At most 100');
  });
});

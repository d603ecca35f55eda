import { describe, expect, it } from 'vitest';
import { DemioDailyQuotaError } from '../../../server/webinar/errors';
import { DemioPacer, PacerRegistry } from '../../../server/webinar/pacer';

const clock = (start: string) => {
  let now = Date.parse(start);
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('DemioPacer', () => {
  it('lets 180 calls through at once, then holds the next until the first is a minute (and a second) old', () => {
    const c = clock('2026-03-02T15:00:00Z');
    const pacer = new DemioPacer({ perMinute: 180, perDay: 5000 }, c.now);
    for (let i = 0; i < 180; i += 1) expect(pacer.reserve()).toBe(0);
    expect(pacer.reserve()).toBe(61_000);
  });

  it('queues calls asked for at once one after another, never two in the same freed slot', () => {
    const c = clock('2026-03-02T15:00:00Z');
    const pacer = new DemioPacer({ perMinute: 2, perDay: 5000 }, c.now);
    pacer.reserve();
    c.advance(10_000);
    pacer.reserve();
    expect([pacer.reserve(), pacer.reserve(), pacer.reserve()]).toEqual([51_000, 61_000, 112_000]);
  });

  it('refuses past the day’s calls until midnight UTC, then starts again', () => {
    const c = clock('2026-03-02T23:00:00Z');
    const pacer = new DemioPacer({ perMinute: 1000, perDay: 3 }, c.now);
    pacer.reserve();
    pacer.reserve();
    pacer.reserve();
    expect(pacer.usedToday).toBe(3);
    const error = (() => {
      try {
        pacer.reserve();
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DemioDailyQuotaError);
    expect((error as DemioDailyQuotaError).resetsAt.toISOString()).toBe('2026-03-03T00:00:00.000Z');
    c.advance(60 * 60_000);
    expect(pacer.reserve()).toBe(0);
    expect(pacer.usedToday).toBe(1);
  });

  it('is one per account key', () => {
    const registry = new PacerRegistry();
    expect(registry.pacerFor('a')).toBe(registry.pacerFor('a'));
    expect(registry.pacerFor('a')).not.toBe(registry.pacerFor('b'));
  });
});

/**
 * Graph's pace on demand: the latency profile's draws have the documented percentiles (checked on
 * the draw function, never by timing a call), and the profile is switched through /__sim/latency.
 * Insights calls report usage of type ads_insights.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import {
  type CallShape,
  drawBatchLatency,
  drawLatency,
  parseLatencyProfile,
} from '../../../../server/adplatform/simulator/latency';
import { seededRandom } from '../../../../server/adplatform/simulator/random';
import { simulatorSettings } from '../../../../server/adplatform/simulator/settings';

function percentiles(call: CallShape, n = 40_000) {
  const random = seededRandom(7).next;
  const draws = Array.from({ length: n }, () => drawLatency('meta', call, random)).sort((a, b) => a - b);
  return { p50: draws[Math.floor(n * 0.5)]!, p95: draws[Math.floor(n * 0.95)]! };
}

describe('the meta latency profile', () => {
  it('draws reads around 300 ms at the median and 1.2 s at the 95th percentile', () => {
    const { p50, p95 } = percentiles({ kind: 'read' });
    expect(p50).toBeGreaterThan(280);
    expect(p50).toBeLessThan(320);
    expect(p95).toBeGreaterThan(1100);
    expect(p95).toBeLessThan(1300);
  });

  it('draws ad-level insights around 800 ms and 3 s, slower with more rows', () => {
    const small = percentiles({ kind: 'insights', rows: 0 });
    expect(small.p50).toBeGreaterThan(750);
    expect(small.p50).toBeLessThan(850);
    expect(small.p95).toBeGreaterThan(2750);
    expect(small.p95).toBeLessThan(3250);
    const large = percentiles({ kind: 'insights', rows: 500 });
    expect(large.p50 / small.p50).toBeCloseTo(2, 1);
  });

  it('draws writes around 400 ms, and a batch as its slowest item', () => {
    expect(Math.abs(percentiles({ kind: 'write' }).p50 - 400)).toBeLessThan(25);
    const items: CallShape[] = [{ kind: 'read' }, { kind: 'write' }, { kind: 'read' }];
    const a = seededRandom(9).next;
    const b = seededRandom(9).next;
    const separately = items.map((item) => drawLatency('meta', item, a));
    expect(drawBatchLatency('meta', items, b)).toBe(Math.max(...separately));
  });

  it('answers at once when off, and reads the setting', () => {
    expect(drawLatency('off', { kind: 'insights', rows: 10_000 }, Math.random)).toBe(0);
    expect(parseLatencyProfile(undefined)).toBe('off');
    expect(parseLatencyProfile('0')).toBe('off');
    expect(simulatorSettings({ SIMULATOR_LATENCY: 'meta' }).latency).toBe('meta');
    expect(() => parseLatencyProfile('fast')).toThrow('SIMULATOR_LATENCY must be 0 or meta, not fast');
  });
});

describe('the simulator with a latency profile', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 2, start: '2026-03-02T15:00:00Z', speed: 0, accounts: 1, scenarios: [] });
  });
  afterAll(() => sim.close());

  it('switches the profile through the admin API and shows it in the state', async () => {
    const post = (profile: string) =>
      fetch(`${sim.url}/__sim/latency`, { method: 'POST', body: JSON.stringify({ profile }) });
    expect(await (await fetch(`${sim.url}/__sim/latency`)).json()).toEqual({ profile: 'off' });
    expect(await (await post('meta')).json()).toEqual({ profile: 'meta' });
    expect(await (await fetch(`${sim.url}/__sim/state`)).json()).toMatchObject({ latency: 'meta' });
    const refused = await post('slow');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ profile: ['must be one of off, meta'] });
    expect(await (await post('off')).json()).toEqual({ profile: 'off' });
  });

  it('reports insights calls as ads_insights usage and other calls as ads_management', async () => {
    const account = sim.world.accounts[0]!.accountId;
    const usageType = async (path: string) => {
      const response = await fetch(`${sim.url}/v25.0/${path}${path.includes('?') ? '&' : '?'}access_token=t`);
      const usage = JSON.parse(response.headers.get('x-business-use-case-usage')!) as Record<
        string,
        { type: string }[]
      >;
      return usage[account]![0]!.type;
    };
    expect(await usageType(`act_${account}/insights?level=ad`)).toBe('ads_insights');
    expect(await usageType(`act_${account}/campaigns`)).toBe('ads_management');
    const campaign = [...sim.world.campaigns.values()][0]!.id;
    expect(await usageType(`${campaign}/insights`)).toBe('ads_insights');
  });
});

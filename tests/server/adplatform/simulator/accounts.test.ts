/**
 * The simulator at agency scale: any number of ad accounts, built the same way from the same seed,
 * and each account's own call budget (business use case usage), counted per account.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';

const started: Simulator[] = [];
async function simulator(options: Parameters<typeof startSimulator>[0]) {
  const sim = await startSimulator({ scenarios: [], start: '2026-03-02T15:00:00Z', speed: 0, ...options });
  started.push(sim);
  return sim;
}

afterEach(async () => {
  for (const sim of started.splice(0)) await sim.close();
});

const read = (sim: Simulator, accountId: string) =>
  fetch(`${sim.url}/v25.0/act_${accountId}/campaigns?access_token=t&fields=name`);

describe('simulated ad accounts', () => {
  it('builds more accounts than the firm list, each named once, the same from the same seed', async () => {
    const a = await simulator({ accounts: 20, campaignsPerAccount: 1, adsPerCampaign: 1 });
    const b = await simulator({ accounts: 20, campaignsPerAccount: 1, adsPerCampaign: 1 });
    expect(a.world.accounts).toHaveLength(20);
    expect(new Set(a.world.accounts.map((x) => x.name)).size).toBe(20);
    expect(new Set(a.world.accounts.map((x) => x.accountId)).size).toBe(20);
    expect(a.world.accounts[6]!.name).toBe(`${a.world.accounts[0]!.name} 2`);
    expect(b.world.accounts.map((x) => [x.accountId, x.name])).toEqual(
      a.world.accounts.map((x) => [x.accountId, x.name]),
    );
    expect(a.world.campaigns.size).toBe(20);
  });

  it("refuses an account's calls past its budget with 80004, leaves other accounts alone, and counts both", async () => {
    const sim = await simulator({ accounts: 2, campaignsPerAccount: 1, adsPerCampaign: 1, accountQuota: 2 });
    const [busy, quiet] = sim.world.accounts.map((x) => x.accountId) as [string, string];
    expect((await read(sim, busy)).status).toBe(200);
    const second = await read(sim, busy);
    expect(JSON.parse(second.headers.get('x-business-use-case-usage')!)[busy][0].call_count).toBe(100);
    const refused = await read(sim, busy);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(80004);
    expect((await read(sim, quiet)).status).toBe(200);
    expect(sim.accountCalls.get(busy)).toEqual({ reads: 3, writes: 0, refused: 1, insights: 0 });
    expect(sim.accountCalls.get(quiet)).toEqual({ reads: 1, writes: 0, refused: 0, insights: 0 });
  });
});

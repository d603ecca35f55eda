/**
 * System-user tokens issued by the simulator's admin API: who `/me` is, what `/debug_token` says,
 * which ad accounts a token reaches and what it may do, and a token that is revoked or expires on
 * the simulated clock refused as Meta refuses it (code 190).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';

const started: Simulator[] = [];
async function simulator() {
  const sim = await startSimulator({ scenarios: [], start: '2026-03-02T15:00:00Z', speed: 0, accounts: 3 });
  started.push(sim);
  return sim;
}

afterEach(async () => {
  for (const sim of started.splice(0)) await sim.close();
});

/** A Graph answer as these tests read it: an error, a list's rows, a debug_token's data, or a node. */
interface GraphBody extends Record<string, unknown> {
  error: { code: number; error_subcode?: number; message: string };
  /** A list's rows, or debug_token's data. */
  data: Record<string, unknown>[] & Record<string, unknown>;
}

const get = async (sim: Simulator, path: string, token: string) => {
  const url = new URL(`${sim.url}/v25.0/${path}`);
  url.searchParams.set('access_token', token);
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as GraphBody };
};

const admin = async (sim: Simulator, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sim.url}/__sim/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('system-user tokens in the simulator', () => {
  it('issues a token whose /me is its system user and whose /me/adaccounts lists only what it reaches', async () => {
    const sim = await simulator();
    const [first, second, third] = sim.world.accounts.map((a) => a.accountId) as [string, string, string];
    const issued = await admin(sim, 'POST', 'tokens', {
      system_user: 'Rules Robot',
      business: 'Northwind Advisors',
      accounts: [`act_${first}`, second],
      expires_in_days: 60,
    });
    expect(issued.status).toBe(201);
    const token = issued.body.token as string;
    expect(token).toMatch(/^EAA/);
    expect(issued.body).toMatchObject({
      system_user: { name: 'Rules Robot' },
      business: { name: 'Northwind Advisors' },
      scopes: ['ads_management', 'ads_read', 'business_management', 'leads_retrieval'],
      expires_at: '2026-05-01T15:00:00.000Z',
      accounts: [`act_${first}`, `act_${second}`],
      revoked: false,
    });

    expect((await get(sim, 'me?fields=id,name', token)).body).toEqual(issued.body.system_user);
    const listed = await get(sim, 'me/adaccounts?fields=id,name', token);
    expect(listed.body.data.map((a) => a.id)).toEqual([`act_${first}`, `act_${second}`]);
    expect((await get(sim, `act_${first}/campaigns?fields=name`, token)).status).toBe(200);

    // Another account, and its objects, do not exist to this token.
    const elsewhere = await get(sim, `act_${third}/campaigns?fields=name`, token);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const campaign = [...sim.world.campaigns.values()].find((c) => c.accountId === third)!;
    expect((await get(sim, `${campaign.id}?fields=name`, token)).body.error.error_subcode).toBe(33);

    // An unregistered plain token still reaches every account, as before.
    const everything = await get(sim, 'me/adaccounts?fields=id', 'simulator-token');
    expect(everything.body.data).toHaveLength(3);
  });

  it('answers /debug_token and the business as Meta does', async () => {
    const sim = await simulator();
    const token = sim.issueToken({ business: 'Northwind Advisors', scopes: ['ads_management', 'business_management'] });
    const debug = (await get(sim, `debug_token?input_token=${token}`, token)).body.data;
    const business = sim.tokens.find(token)!.business;
    expect(debug).toMatchObject({
      type: 'SYSTEM_USER',
      is_valid: true,
      expires_at: 0,
      scopes: ['ads_management', 'business_management'],
      user_id: sim.tokens.find(token)!.systemUser.id,
    });
    expect(debug.granular_scopes).toContainEqual({ scope: 'business_management', target_ids: [business.id] });
    expect((await get(sim, `${business.id}?fields=id,name`, token)).body).toEqual(business);

    const plain = (await get(sim, 'debug_token?input_token=simulator-token', 'simulator-token')).body.data;
    expect(plain).toMatchObject({ type: 'USER', is_valid: true, expires_at: 0 });
  });

  it('refuses what its permissions do not cover', async () => {
    const sim = await simulator();
    const readOnly = sim.issueToken({ scopes: ['ads_read'] });
    const ad = [...sim.world.ads.values()][0]!;
    expect((await get(sim, `${ad.id}?fields=status`, readOnly)).status).toBe(200);
    const write = await fetch(`${sim.url}/v25.0/${ad.id}`, {
      method: 'POST',
      body: new URLSearchParams({ status: 'PAUSED', access_token: readOnly }),
    });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { error: { code: number } }).error.code).toBe(200);
    expect((await get(sim, `${ad.id}/leads`, readOnly)).body.error.code).toBe(200);
    const none = sim.issueToken({ scopes: ['pages_show_list'] });
    expect((await get(sim, `${ad.id}?fields=status`, none)).body.error.code).toBe(200);
  });

  it('refuses a revoked token, an expired one on the simulated clock, and an EAA token it never issued', async () => {
    const sim = await simulator();
    const revoked = sim.issueToken();
    const expiring = sim.issueToken({ expires_in_days: 1 });
    expect((await get(sim, 'me', revoked)).status).toBe(200);

    expect((await admin(sim, 'DELETE', `tokens/${revoked}`)).body.revoked).toBe(true);
    const refused = await get(sim, 'me', revoked);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 190, error_subcode: 460, type: 'OAuthException' });

    expect((await get(sim, 'me', expiring)).status).toBe(200);
    sim.advanceHours(25);
    const expired = await get(sim, 'me', expiring);
    expect(expired.body.error).toMatchObject({ code: 190, error_subcode: 463 });
    expect(expired.body.error.message).toMatch(/^Error validating access token: Session has expired on /);

    const forged = await get(sim, 'me', 'EAAnot-one-the-simulator-issued');
    expect(forged.body.error).toMatchObject({
      code: 190,
      message: 'Invalid OAuth access token - Cannot parse access token',
    });
    expect((await get(sim, 'debug_token?input_token=EAAforged', 'simulator-token')).body.data).toMatchObject({
      is_valid: false,
      error: { code: 190 },
    });
  });

  it('changes what a token reaches, as when a business relationship ends', async () => {
    const sim = await simulator();
    const [first, second] = sim.world.accounts.map((a) => a.accountId) as [string, string];
    const token = sim.issueToken();
    expect((await get(sim, 'me/adaccounts?fields=id', token)).body.data).toHaveLength(3);
    const changed = await admin(sim, 'POST', `tokens/${token}`, { accounts: [second] });
    expect(changed.body.accounts).toEqual([`act_${second}`]);
    expect((await get(sim, 'me/adaccounts?fields=id', token)).body.data).toEqual([{ id: `act_${second}` }]);
    expect((await get(sim, `act_${first}/campaigns`, token)).body.error.error_subcode).toBe(33);
    expect((await admin(sim, 'GET', 'tokens')).body).toHaveLength(1);
    expect((await admin(sim, 'POST', 'tokens', { scopes: ['everything'] })).status).toBe(400);
  });
});

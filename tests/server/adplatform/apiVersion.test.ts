/**
 * The Graph API version the product calls: start-up refuses one that is not live (on Meta's
 * calendar, or on the simulator's clock at its start), naming the live ones; the client keeps what
 * Graph's answers say of the version; the health check warns 60 days before it expires, and when
 * Meta answers it as another version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { startAdPlatform } from '../../../server/adplatform/index';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { DEFAULT_META_API_VERSION, versionProblem } from '../../../server/adplatform/versions';
import type { AdPlatformClient } from '../../../server/adplatform/types';
import type { DbHandle } from '../../../server/db/client';
import { loadConfig } from '../../../server/config';
import { judgeApiVersion } from '../../../server/health/apiVersion';
import { checkPlatformHealth } from '../../../server/health/monitor';
import { platformHealthNow } from '../../../server/health/report';
import { eachDatabase, freshDatabase } from '../../support/db';

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: '/tmp/ad-rules-test-unused', ...env });
const NOVEMBER = '2026-11-29T12:00:00Z';

describe('the configured API version at start-up', () => {
  it('refuses an expired version, naming the versions live on the simulator’s clock', async () => {
    await expect(
      startAdPlatform(config({ META_API_VERSION: 'v24.0' }), {
        SIMULATOR_START: NOVEMBER,
        SIMULATOR_SCENARIOS: 'none',
      }),
    ).rejects.toThrow(
      'META_API_VERSION v24.0 expired on 10 November 2026. The versions Graph answers on 2026-11-29: v25.0, v26.0, v27.0. Set META_API_VERSION to one of them.',
    );
  });

  it('refuses the product’s old default against Meta itself, judged on today’s calendar', async () => {
    await expect(
      startAdPlatform(config({ META_API_VERSION: 'v21.0', META_ACCESS_TOKEN: 'token' }), {}),
    ).rejects.toThrow(/^META_API_VERSION v21\.0 expired on 9 September 2025\. The versions Graph answers on /);
  });

  it('says so of a version not released on the simulator’s clock, or one Meta never had', () => {
    expect(versionProblem(DEFAULT_META_API_VERSION, Date.parse('2026-03-02T15:00:00Z'))).toBe(
      'META_API_VERSION v26.0 was not released yet on 2026-03-02 (released 29 July 2026). The versions Graph answers on 2026-03-02: v23.0, v24.0, v25.0. Set META_API_VERSION to one of them.',
    );
    expect(versionProblem('v99.0', Date.parse(NOVEMBER))).toMatch(
      /^META_API_VERSION v99\.0 is not a version in Meta’s calendar/,
    );
  });

  it('starts with the default version, live and with no end announced', async () => {
    const platform = await startAdPlatform(config(), { SIMULATOR_START: NOVEMBER, SIMULATOR_SCENARIOS: 'none' });
    try {
      expect(platform.mode).toBe('simulator');
      await platform.client.listAdAccounts();
      expect(platform.client.apiVersion()).toMatchObject({ configured: 'v26.0', notice: { answeredAs: 'v26.0' } });
    } finally {
      await platform.stop();
    }
  });
});

describe('what Graph says of the version', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      start: '2027-01-01T12:00:00Z',
      speed: 0,
      accounts: 1,
      scenarios: [],
      autoUpgrade: true,
    });
  });
  afterAll(() => sim.close());
  const client = (apiVersion: string) => new GraphClient({ baseUrl: sim.url, apiVersion, accessToken: 't' });

  it('keeps the deprecation notice of a version near its end, and the health check warns 60 days before', async () => {
    const v25 = client('v25.0');
    await v25.listAdAccounts();
    const { configured, notice } = v25.apiVersion();
    expect(notice).toMatchObject({
      answeredAs: 'v25.0',
      warning: 'v25.0 will be deprecated on 2027-02-23. Please upgrade to v27.0.',
      sunset: new Date('2027-02-23T00:00:00Z'),
    });
    expect(judgeApiVersion(configured, notice, new Date('2027-01-01T12:00:00Z'))).toEqual({
      state: 'warning',
      detail:
        'Graph API v25.0 stops working on 23 February 2027 (in 53 days) (Meta: “v25.0 will be deprecated on 2027-02-23. Please upgrade to v27.0.”); set META_API_VERSION to v27.0',
    });
    expect(judgeApiVersion(configured, notice, new Date('2026-12-01T12:00:00Z')).state).toBe('ok');
  });

  it('warns once Meta answers an expired version as another', async () => {
    const v24 = client('v24.0');
    await v24.listAdAccounts();
    const verdict = judgeApiVersion('v24.0', v24.apiVersion().notice, new Date('2027-01-01T12:00:00Z'));
    expect(verdict).toEqual({
      state: 'warning',
      detail:
        'Meta answers v24.0 as v25.0: v24.0 has expired (Meta: “The call has been auto-upgraded to v25.0 as v24.0 is deprecated.”); set META_API_VERSION to v27.0',
    });
  });

  it('is calm about a version with no end announced, or whose end is far', () => {
    expect(judgeApiVersion('v26.0', undefined, new Date(NOVEMBER))).toEqual({
      state: 'ok',
      detail: 'Graph API v26.0: no end date announced',
    });
    expect(judgeApiVersion('v25.0', undefined, new Date(NOVEMBER))).toEqual({
      state: 'ok',
      detail: 'Graph API v25.0 works until 23 February 2027',
    });
  });
});

describe('the product’s calls on v27.0, as a new app', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      seed: 6,
      start: NOVEMBER,
      speed: 0,
      accounts: 1,
      campaignsPerAccount: 2,
      adsPerCampaign: 2,
    });
  });
  afterAll(() => sim.close());

  // A call using one would be refused (#12) and throw.
  it('use none of the features v27.0 retires (multi-id reads, aliases, method override, async batch)', async () => {
    const client = new GraphClient({ baseUrl: sim.url, apiVersion: 'v27.0', accessToken: 't', maxAttempts: 1 });
    const account = sim.world.accounts[0]!.accountId;
    await client.listAdAccounts();
    const { ads } = await client.listCampaignsWithAds(account);
    await client.getInsights(account, { level: 'ad', attributionWindows: ['1d_click', '7d_click'] });
    const yesterday = new Date(Date.parse(NOVEMBER) - 86_400_000).toISOString().slice(0, 10);
    const range = { since: yesterday, until: yesterday };
    await client.getInsights(account, { level: 'ad', timeRange: range, timeIncrement: 1, breakdown: 'hourly' });
    await client.listLeads(ads[0]!.id, { accountId: account });
    await client.checkToken();
    expect(await client.setStatuses([{ id: ads[0]!.id, status: 'PAUSED' }])).toEqual([{ id: ads[0]!.id, ok: true }]);
    expect((await client.readStatuses(ads.map((ad) => ad.id))).get(ads[0]!.id)).toBe('PAUSED');
  });
});

eachDatabase((engine) => {
  describe(`the health panel's API version check on ${engine}`, () => {
    let dbh: DbHandle;
    beforeAll(async () => {
      dbh = await freshDatabase(engine);
    });
    afterAll(() => dbh.close());

    it('records a warning with the token’s checks, holding no run', async () => {
      const at = new Date('2027-01-10T12:00:00Z');
      const client = {
        listAdAccounts: async () => [],
        apiVersion: () => ({ configured: 'v25.0' }),
      } as unknown as AdPlatformClient;
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      await checkPlatformHealth({ db: dbh.db, client, now: () => at, log });
      const health = await platformHealthNow(dbh.db, at);
      expect(health.token.problems).toEqual([
        {
          check: 'api_version',
          state: 'warning',
          detail: 'Graph API v25.0 stops working on 23 February 2027 (in 44 days); set META_API_VERSION to v27.0',
          since: at.toISOString(),
        },
      ]);
    });
  });
});

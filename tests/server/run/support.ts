/**
 * Engine test set-up: an in-memory ad platform whose calls are counted and whose failures can be
 * switched on, rules seeded straight into the database, and a quiet log.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { CampaignSync } from '../../../server/campaigns/sync';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { CARRIED_OVER_JUDGING, type RuleJudging } from '../../../shared/judging';
import { GraphClient } from '../../../server/adplatform/graphClient';
import type { BlastLimits } from '../../../server/judgement/blastRadius';
import { startSimulator } from '../../../server/adplatform/simulator/index';
import type {
  Ad,
  AdPlatformClient,
  Campaign,
  InsightRow,
  ObjectStatus,
  StatusChangeResult,
} from '../../../server/adplatform/types';
import type { Database, DbHandle } from '../../../server/db/client';
import { folders, metaAdAccounts, ruleActivity, ruleItems, rules } from '../../../server/db/schema/index';
import type { EngineContext, EngineLog } from '../../../server/run/pipeline/context';
import { createSnapshotStore } from '../../../server/run/accountSnapshots';
import { mailerFromConfig, type Mailer, type MailMessage } from '../../../server/mail/mailer';
import { createTestApi, type TestApi } from '../../support/api';
import { freshDatabase, type Engine } from '../../support/db';
import { makeTempDir } from '../../support/tempDir';

type Method = 'listCampaigns' | 'listAds' | 'getInsights' | 'setStatuses';

export class FakePlatform implements AdPlatformClient {
  campaigns = new Map<string, Campaign & { account: string }>();
  ads = new Map<string, Ad & { account: string }>();
  insights = new Map<string, InsightRow>();
  calls: Record<Method, number> = { listCampaigns: 0, listAds: 0, getInsights: 0, setStatuses: 0 };
  /** Every status change that took effect, in order. */
  writes: { id: string; status: ObjectStatus }[] = [];
  private failures: { method: Method; times: number; error: Error }[] = [];
  /** Ids whose status change the platform refuses (per-item failure). */
  refuse = new Set<string>();

  failNext(method: Method, times = 1, error = new Error('(#17) User request limit reached')) {
    this.failures.push({ method, times, error });
  }

  private call(method: Method) {
    this.calls[method] += 1;
    const failure = this.failures.find((f) => f.method === method && f.times > 0);
    if (failure) {
      failure.times -= 1;
      throw failure.error;
    }
  }

  addCampaign(account: string, id: string, name: string, status = 'ACTIVE') {
    this.campaigns.set(id, { account, id, name, status, effective_status: status });
  }

  addAd(
    account: string,
    campaignId: string,
    id: string,
    metrics: Partial<InsightRow> & { leads?: number },
    status = 'ACTIVE',
  ) {
    const { leads, ...rest } = metrics;
    this.ads.set(id, {
      account,
      id,
      name: `Ad ${id}`,
      status,
      effective_status: status,
      campaign_id: campaignId,
      adset_id: `s${campaignId}`,
    });
    this.insights.set(id, {
      campaign_id: campaignId,
      campaign_name: this.campaigns.get(campaignId)!.name,
      ad_id: id,
      ad_name: `Ad ${id}`,
      spend: '0',
      impressions: '1000',
      ...(leads !== undefined ? { actions: [{ action_type: 'lead', value: String(leads) }] } : {}),
      ...rest,
    });
  }

  status(id: string) {
    return (this.ads.get(id) ?? this.campaigns.get(id))?.status;
  }

  async listAdAccounts() {
    return [];
  }

  async listCampaigns(accountId: string) {
    this.call('listCampaigns');
    return [...this.campaigns.values()]
      .filter((c) => c.account === accountId)
      .map(({ account: _a, ...c }) => ({ ...c }));
  }

  async listAds(accountId: string) {
    this.call('listAds');
    return [...this.ads.values()]
      .filter((a) => a.account === accountId)
      .map(({ account: _a, ...a }) => {
        const campaignOff = this.campaigns.get(a.campaign_id)?.status !== 'ACTIVE';
        return { ...a, effective_status: a.status === 'ACTIVE' && campaignOff ? 'CAMPAIGN_PAUSED' : a.status };
      });
  }

  async listCampaignsWithAds(accountId: string) {
    const [campaigns, ads] = await Promise.all([this.listCampaigns(accountId), this.listAds(accountId)]);
    return { campaigns, ads };
  }

  async getInsights(accountId: string) {
    this.call('getInsights');
    return [...this.insights.values()]
      .filter((row) => this.ads.get(row.ad_id!)?.account === accountId)
      .map((r) => ({ ...r }));
  }

  async setStatuses(changes: { id: string; status: ObjectStatus }[]): Promise<StatusChangeResult[]> {
    this.call('setStatuses');
    return changes.map(({ id, status }) => {
      const object = this.ads.get(id) ?? this.campaigns.get(id);
      if (!object || this.refuse.has(id)) return { id, ok: false, error: '(#100) Unsupported request' };
      object.status = status;
      object.effective_status = status;
      this.writes.push({ id, status });
      return { id, ok: true };
    });
  }
}

export const quietLog: EngineLog & { lines: string[] } = {
  lines: [],
  info(m) {
    this.lines.push(m);
  },
  warn(m) {
    this.lines.push(m);
  },
  error(m) {
    this.lines.push(m);
  },
};

/**
 * The fake accounts hold two or three ads, where any turn-off is more than half of them: tests of
 * other behaviour lift the blast-radius limit; engine-held.test.ts tests it at its defaults.
 */
export const NO_BLAST_LIMIT: BlastLimits = { maxShare: 1, maxActions: 1000 };

export function engineContext(
  db: Database,
  client: AdPlatformClient,
  now: () => Date,
  extra: Partial<EngineContext> = {},
): EngineContext {
  return {
    db,
    client,
    snapshots: createSnapshotStore(db, { client, pollMs: 20 }),
    log: quietLog,
    now,
    limits: NO_BLAST_LIMIT,
    ...extra,
  };
}

let seq = 0;

export async function seedAccount(db: Database, overrides: Partial<typeof metaAdAccounts.$inferInsert> = {}) {
  seq += 1;
  const [account] = await db
    .insert(metaAdAccounts)
    .values({
      adAccountId: `act_${900000 + seq}`,
      accountName: `Account ${seq}`,
      timezoneName: 'America/New_York',
      ...overrides,
    })
    .returning();
  return account!;
}

/**
 * A database for the suite and, before each test, a new FakePlatform holding a newly seeded
 * account with its campaign c1. Read the fields in tests and hooks: they change before each test.
 */
export function accountOnPlatform(engine: Engine) {
  const world = {} as { dbh: DbHandle; platform: FakePlatform; account: Awaited<ReturnType<typeof seedAccount>> };
  beforeAll(async () => {
    world.dbh = await freshDatabase(engine);
  });
  afterAll(() => world.dbh.close());
  beforeEach(async () => {
    world.platform = new FakePlatform();
    world.account = await seedAccount(world.dbh.db);
    world.platform.addCampaign(world.account.adAccountId, 'c1', 'EDM EP-W 2024-02-01 6PM');
  });
  return world;
}

export interface SeedRule {
  folderName?: string;
  ruleName?: string;
  timezone?: string;
  /** [day (0 = Sunday), hour] pairs switched on. */
  hours?: [number, number][];
  everyDayAt?: number[];
  alertHours?: number[];
  contains?: string[];
  notContains?: string[];
  tasks?: Record<string, Record<string, string>>;
  isActive?: boolean;
  updatedAt?: Date;
  /** How the rule judges late data; default: as before the settings existed (no maturity, no cool-down). */
  judging?: Partial<RuleJudging>;
}

export async function seedRule(db: Database, adAccountId: string, options: SeedRule = {}) {
  seq += 1;
  const [folder] = await db
    .insert(folders)
    .values({ name: options.folderName ?? `Folder ${seq}`, clientType: 'EDM', plan: 'solo', adAccountId })
    .returning();
  const schedule = Array.from({ length: 7 }, (_, day) =>
    Array.from(
      { length: 24 },
      (_, hour) =>
        (options.everyDayAt ?? []).includes(hour) || (options.hours ?? []).some(([d, h]) => d === day && h === hour),
    ),
  );
  const alertSchedule = Array.from({ length: 24 }, (_, h) => (options.alertHours ?? []).includes(h));
  const [rule] = await db
    .insert(rules)
    .values({
      folderId: folder!.id,
      name: options.ruleName ?? `Rule ${seq}`,
      isActive: options.isActive ?? true,
      schedule,
      alertSchedule,
      timezone: options.timezone ?? 'UTC',
      judging: { ...CARRIED_OVER_JUDGING, ...options.judging },
      updatedAt: options.updatedAt ?? new Date('2000-01-01T00:00:00Z'),
    })
    .returning();
  const items = [
    { type: 'rule_filter', name: 'campaign_name_contains', values: options.contains ?? ['EDM'], isActive: true },
    {
      type: 'rule_filter',
      name: 'campaign_name_not_contains',
      values: options.notContains ?? [],
      isActive: (options.notContains ?? []).length > 0,
    },
    ...Object.entries(options.tasks ?? { trigger_cpl: { cpl: '50' } }).map(([name, values]) => ({
      type: 'rule_task',
      name,
      values,
      isActive: true,
    })),
  ];
  await db.insert(ruleItems).values(items.map((item, position) => ({ ...item, ruleId: rule!.id, position })));
  return { folder: folder!, rule: rule! };
}

/** An API with a viewer of the Activity and one rule in one folder, for a test that writes the rule's entries. */
export async function activityFixture(engine: Engine) {
  const api = await createTestApi(engine);
  const viewer = await api.userWith(['view_logs', 'read_rules']);
  const account = await seedAccount(api.dbh.db, { accountName: 'Wombat account' });
  const { rule, folder } = await seedRule(api.dbh.db, account.adAccountId, {
    folderName: 'Quokka folder',
    ruleName: 'Wombat rule',
  });
  return { api, viewer, rule, folder };
}

/** `ordering=` as plain SQL's ORDER BY, ties broken by id in the first key's direction (as the Activity does). */
export function plainOrderBy(ordering: string): string {
  const terms = ordering.split(',').map((key) => `${key.replace(/^-/, '')}${key.startsWith('-') ? ' desc' : ''}`);
  return [...terms, `id ${ordering.startsWith('-') ? 'desc' : 'asc'}`].join(', ');
}

/** Asks the Activity for every page of every search and ordering, and expects the ids `reference` gives for it. */
export async function expectActivityPages(
  api: TestApi,
  token: string,
  cases: { searches: string[]; orderings: string[]; pages: [number, number][] },
  reference: (search: string, ordering: string, limit: number, offset: number) => Promise<number[]>,
) {
  for (const search of cases.searches)
    for (const ordering of cases.orderings)
      for (const [limit, offset] of cases.pages) {
        const url = `/api/rule_log/?limit=${limit}&offset=${offset}&ordering=${ordering}${search ? `&search=${search}` : ''}`;
        const response = await api.request(token, { method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        const ids = response.json().results.map((entry: { id: number }) => entry.id);
        expect(ids, url).toEqual(await reference(search, ordering, limit, offset));
      }
}

export async function activityOf(db: Database, ruleId: number) {
  return db.select().from(ruleActivity).where(eq(ruleActivity.ruleId, ruleId)).orderBy(ruleActivity.id);
}

export class CapturingMailer implements Mailer {
  readonly mode = 'outbox' as const;
  sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
    return { messageId: `<${this.sent.length}@test>` };
  }
  async close() {}
}

/** The Graph simulator with its clock stopped, and a client that does not wait between retries. */
export async function startFrozenSimulator(options: { start?: string; retries?: number; seed?: number } = {}) {
  const sim = await startSimulator({
    seed: options.seed ?? 11,
    start: options.start ?? '2026-03-02T15:00:00Z',
    speed: 0,
    accounts: 2,
    campaignsPerAccount: 4,
    adsPerCampaign: 2,
  });
  const client = new GraphClient({
    baseUrl: sim.url,
    apiVersion: 'v25.0',
    accessToken: 'simulator-token',
    sleep: async () => undefined,
    random: () => 0.5,
    timeoutMs: 2000,
    maxAttempts: options.retries ?? 5,
  });
  const home = sim.world.accounts[0]!;
  return {
    sim,
    client,
    home: { adAccountId: `act_${home.accountId}`, accountName: home.name, timezoneName: home.timezone },
  };
}

/**
 * A test API with every service a real server has: the ad platform (the frozen simulator), campaign
 * sync, the rule engine, and mail written to an outbox in a temp data dir named after `prefix`.
 */
export async function apiWithAllServices(prefix: string, engine: Engine = 'pglite') {
  const world = await startFrozenSimulator();
  const dataDir = await makeTempDir(prefix);
  const mailer = mailerFromConfig({ mailFrom: 'test@example.com', dataDir: dataDir.path }, () => undefined);
  const api: TestApi = await createTestApi(engine, {
    config: { dataDir: dataDir.path },
    services: (dbh) => ({
      mailer,
      adPlatform: world.client,
      campaignSync: new CampaignSync(dbh.db, world.client),
      ruleEngine: createRuleEngineService({ db: dbh.db, client: world.client, log: quietLog }),
    }),
  });
  return {
    api,
    sim: world.sim,
    home: world.home,
    dataDir: dataDir.path,
    /** Closes the API and the simulator and removes the data dir. */
    async close() {
      await api.close();
      await world.sim.close();
      await dataDir.remove();
    },
  };
}

export type AllServicesApi = Awaited<ReturnType<typeof apiWithAllServices>>;

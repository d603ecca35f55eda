/**
 * The approval queue, GET /api/approvals/: every held run still waiting that the signed-in person
 * may decide, most money at stake first (then the longest waiting), with the money split into the
 * spend it stops (the last 24 hours' from the metric history; estimated when the history is shorter)
 * and the budget it adds, the objects named, and whether this person may approve it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adMetricHistory, groups, ruleRuns, rules, userGroups } from '../../../server/db/schema/index';
import type { PlannedAction } from '../../../server/judgement/evaluate';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';

const HELD_AT = new Date('2026-03-10T12:30:00Z');
const hoursBefore = (hours: number) => new Date(HELD_AT.getTime() - hours * 3_600_000);

const turnOff = (objectId: string, name: string, action: PlannedAction['action'] = 'turn_off_ad'): PlannedAction => ({
  action,
  objectId,
  campaignId: action === 'turn_off_campaign' ? objectId : 'c1',
  task: 'spend_cpl_no_leads',
  reason: action === 'turn_off_campaign' ? { Campaign: name } : { Ad: name, Campaign: 'Campaign 1' },
});

/** 24 hourly cells with these values at these UTC hours; the read mask of those hours. */
function day(values: Record<number, number>) {
  const cells = Array.from({ length: 24 }, (_, h) => values[h] ?? null);
  const mask = Object.keys(values).reduce((m, h) => m | (1 << Number(h)), 0);
  return { cells, mask };
}

eachDatabase((engine) => {
  describe(`the approval queue on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let scoped: TestUser;
    let junior: TestUser;
    let reader: TestUser;
    let account: string;
    let folderA: number;
    let folderB: number;
    let slot = 0;

    const list = async (user: TestUser, query = '') => {
      const response = await api.request(user.token, { method: 'GET', url: `/api/approvals/${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    /** A rule of the account moved into `folderId`. */
    async function ruleIn(folderId: number, name: string, extra: Partial<typeof rules.$inferInsert> = {}) {
      const { rule } = await seedRule(api.dbh.db, account, { ruleName: name });
      await api.dbh.db
        .update(rules)
        .set({ folderId, ...extra })
        .where(eq(rules.id, rule.id));
      return rule.id;
    }

    /** A held run as the engine leaves one: its planned turn-offs and budget changes in its record. */
    async function held(
      ruleId: number,
      options: {
        planned?: PlannedAction[];
        budgetAdded?: number;
        startedAt?: Date;
        kind?: string;
        decision?: string;
        objects?: unknown[];
      } = {},
    ) {
      slot += 1;
      const budgets = options.budgetAdded
        ? [
            {
              action: 'raise_budget',
              object_id: `as${slot}`,
              object_type: 'adset',
              name: `Ad set ${slot}`,
              campaign_id: 'c1',
              campaign_name: 'Campaign 1',
              before: 100,
              asked: 100 + options.budgetAdded,
              allowed: 100 + options.budgetAdded,
              daily_delta: options.budgetAdded,
              cut: null,
              conditions: [],
              reason: {},
            },
          ]
        : [];
      const [run] = await api.dbh.db
        .insert(ruleRuns)
        .values({
          ruleId,
          slot: new Date(Date.UTC(2026, 2, 1) + slot * 60_000),
          kind: options.kind ?? 'run',
          status: 'done',
          outcome: 'held',
          trigger: options.kind === 'manual' ? 'run_now' : 'schedule',
          note: 'held: would turn off 3 of 4 delivering ads (75%, limit 50%)',
          startedAt: options.startedAt ?? HELD_AT,
          decision: options.decision ?? null,
          details: {
            v: 1,
            objects: options.objects ?? [],
            planned: options.planned ?? [],
            ...(budgets.length
              ? {
                  budgets,
                  money: { added: options.budgetAdded, removed: 0, objects: 1, text: `+$${options.budgetAdded}/day` },
                }
              : {}),
          },
        })
        .returning();
      return run!.id;
    }

    async function history(adId: string, campaignId: string, days: Record<string, Record<number, number>>, on = true) {
      for (const [date, values] of Object.entries(days)) {
        const { cells, mask } = day(values);
        await api.dbh.db.insert(adMetricHistory).values({
          adAccountId: account,
          day: date,
          adId,
          campaignId,
          // Cells without a reading are null (the read mask says which hours hold one).
          spendCents: cells as number[],
          impressions: cells.map((c) => (c === null ? null : 1000)) as number[],
          readMask: mask,
          onMask: on ? mask : 0,
          campaignOnMask: mask,
        });
      }
    }

    type RunName =
      | 'day'
      | 'estimated'
      | 'budget'
      | 'budgetOlder'
      | 'campaign'
      | 'unrecorded'
      | 'decided'
      | 'trashed'
      | 'notifyOnly'
      | 'switchedOff'
      | 'ranWhileOff';
    let ids: Record<RunName, number>;

    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith('superuser');
      scoped = await api.userWith(['read_rules', 'create_update_rules']);
      junior = await api.userWith(['read_rules', 'create_update_rules']);
      reader = await api.userWith(['read_rules']);
      account = (await seedAccount(api.dbh.db, { accountName: 'Harbor Ads', currency: 'USD' })).adAccountId;
      folderA = (await seedRule(api.dbh.db, account, { folderName: 'Folder A' })).folder.id;
      folderB = (await seedRule(api.dbh.db, account, { folderName: 'Folder B' })).folder.id;
      const scopeOf = async (user: TestUser, ruleFolderIds: number[] | null, approvalLimit: number | null) => {
        const [m] = await api.dbh.db.select().from(userGroups).where(eq(userGroups.userId, user.id));
        await api.dbh.db.update(groups).set({ ruleFolderIds, approvalLimit }).where(eq(groups.id, m!.groupId));
      };
      await scopeOf(scoped, [folderA], null);
      await scopeOf(junior, null, 500);

      const a1 = await ruleIn(folderA, 'A one');
      const a2 = await ruleIn(folderA, 'A two');
      const b1 = await ruleIn(folderB, 'B one');
      // A day of readings: $300 spent in the 24 hours before the hold.
      await history('ad-day', 'c1', { '2026-03-09': { 12: 10_000 }, '2026-03-10': { 12: 40_000 } });
      // Four hours of readings: $100 in 4 h, about $600 a day.
      await history('ad-hours', 'c1', { '2026-03-10': { 8: 20_000, 12: 30_000 } });
      // One reading: what it has spent in all, $123.45.
      await history('ad-once', 'c1', { '2026-03-10': { 12: 12_345 } });
      // A campaign turned off stops its ads delivering at the hold ($50 + $0): the paused one stops nothing.
      await history('c9-on', 'c9', { '2026-03-09': { 12: 0 }, '2026-03-10': { 12: 5_000 } });
      await history('c9-off', 'c9', { '2026-03-09': { 12: 0 }, '2026-03-10': { 12: 7_000 } }, false);

      ids = {
        day: await held(a1, { planned: [turnOff('ad-day', 'Day ad')] }),
        estimated: await held(a1, { planned: [turnOff('ad-hours', 'Hours ad'), turnOff('ad-once', 'Once ad')] }),
        budget: await held(a2, { budgetAdded: 250 }),
        // The same $250 a day, waiting an hour longer: before the other.
        budgetOlder: await held(a2, { budgetAdded: 250, startedAt: hoursBefore(1) }),
        campaign: await held(b1, { planned: [turnOff('c9', 'Campaign nine', 'turn_off_campaign')] }),
        // No history at all: the spend the run's record read ($80).
        unrecorded: await held(b1, {
          planned: [turnOff('ad-new', 'New ad')],
          objects: [['a', 'ad-new', 'New ad', 'c1', [80, 0, 0, 0, 0, 1000, null, null], { spend_cpl_no_leads: 'h' }]],
        }),
        decided: await held(a1, { planned: [turnOff('ad-day', 'Day ad')], decision: 'approved' }),
        trashed: await held(await ruleIn(folderA, 'Trashed', { isDeleted: true }), { budgetAdded: 9_000 }),
        notifyOnly: await held(await ruleIn(folderA, 'Notify only', { notifyOnly: true }), { budgetAdded: 9_000 }),
        switchedOff: await held(await ruleIn(folderA, 'Off', { isActive: false }), { budgetAdded: 9_000 }),
        // A Run now of a rule that is off stays approvable.
        ranWhileOff: await held(await ruleIn(folderA, 'Off, ran by hand', { isActive: false }), {
          budgetAdded: 1_000,
          kind: 'manual',
        }),
      };
    });
    afterAll(() => api.close());

    it('lists what is waiting, most money at stake first, then the longest waiting, each with its money split', async () => {
      const page = await list(admin);
      expect(page.count).toBe(7);
      expect(page.results.map((r: { id: number }) => r.id)).toEqual([
        ids.ranWhileOff,
        ids.estimated,
        ids.day,
        ids.budgetOlder,
        ids.budget,
        ids.unrecorded,
        ids.campaign,
      ]);
      const byId = (id: number) => page.results.find((r: { id: number }) => r.id === id);
      expect(byId(ids.day)).toMatchObject({
        rule_name: 'A one',
        folder_id: folderA,
        folder_name: 'Folder A',
        ad_account_name: 'Harbor Ads',
        currency: 'USD',
        spend_stopped_per_day: 300,
        spend_estimated: false,
        budget_added_per_day: 0,
        money_at_stake_per_day: 300,
        held_because: 'would turn off 3 of 4 delivering ads (75%, limit 50%)',
        objects: [{ id: 'ad-day', name: 'Day ad', type: 'ad', change: 'turn_off_ad' }],
        object_count: 1,
        held_at: HELD_AT.toISOString(),
        may_approve: true,
        approve_refusal: null,
      });
      expect(byId(ids.day).waited_seconds).toBeGreaterThan(0);
      expect(byId(ids.estimated)).toMatchObject({ spend_stopped_per_day: 723.45, spend_estimated: true });
      expect(byId(ids.budget)).toMatchObject({
        spend_stopped_per_day: 0,
        budget_added_per_day: 250,
        money_at_stake_per_day: 250,
        objects: [expect.objectContaining({ type: 'adset', change: 'raise_budget' })],
      });
      expect(byId(ids.campaign)).toMatchObject({ spend_stopped_per_day: 50, spend_estimated: false });
      expect(byId(ids.unrecorded)).toMatchObject({ spend_stopped_per_day: 80, spend_estimated: true });
    });

    it('a scoped editor sees only the runs of their folders', async () => {
      const page = await list(scoped);
      expect(page.results.map((r: { folder_name: string }) => r.folder_name)).toEqual(Array(5).fill('Folder A'));
      expect(page.count).toBe(5);
    });

    it('says when the approver’s limit is too low, and why', async () => {
      const page = await list(junior);
      const over = page.results.filter((r: { may_approve: boolean }) => !r.may_approve);
      expect(over.map((r: { id: number }) => r.id)).toEqual([ids.ranWhileOff, ids.estimated]);
      expect(over[1].approve_refusal).toBe(
        'This run releases $723.45/day; your group may approve up to $500/day. Someone allowed more must approve it.',
      );
    });

    it('pages like the other lists', async () => {
      const first = await list(admin, '?limit=2');
      expect(first.count).toBe(7);
      expect(first.results).toHaveLength(2);
      expect(first.next).toContain('offset=2');
      const last = await list(admin, '?limit=2&offset=6');
      expect(last.results.map((r: { id: number }) => r.id)).toEqual([ids.campaign]);
      expect(last.next).toBeNull();
    });

    it('is refused to someone who may not change rules', async () => {
      const response = await api.request(reader.token, { method: 'GET', url: '/api/approvals/' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    });
  });
});

/**
 * The agency overview (`GET /api/overview/`): every live folder, those that need a person first —
 * held runs and health problems, then a CPL over the rules' threshold, then spend with no leads,
 * then the rest by spend — with its numbers of today and the last 7 days in its account's zone,
 * what its rules did today and its held runs; and who may ask.
 */
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client';
import { accountDayReadings, folders, ruleActivity, ruleItems, ruleRuns, rules } from '../../../server/db/schema/index';
import { createHealthStore } from '../../../server/health/store';
import { agencyOverview } from '../../../server/overview/store';
import type { AgencyOverview, OverviewRow } from '../../../shared/overview';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { seedAccount, seedRule, type SeedRule } from '../run/support';

/** 10 AM in New York, 3 PM UTC, 4 AM the next day in Auckland. */
const NOW = new Date('2024-03-05T15:00:00Z');

/** A local day of the zone, `back` days before NOW's. */
const dayOf = (zone: string, back = 0) => DateTime.fromJSDate(NOW, { zone }).minus({ days: back }).toISODate()!;

interface DayReading {
  back: number;
  spend: number;
  leads?: number;
  websiteLeads?: number;
  /** Hours after the day's end the reading was taken (negative: during the day). */
  age?: number;
}

async function readDays(db: Database, adAccountId: string, zone: string, days: DayReading[]) {
  await db.insert(accountDayReadings).values(
    days.map((d) => ({
      adAccountId,
      day: dayOf(zone, d.back),
      ageHours: d.age ?? -14,
      readAt: new Date(NOW.getTime() - (d.back * 24 + 1) * 3_600_000 + (d.age ?? -14) * 60_000),
      spend: d.spend,
      clicks: 0,
      leads: d.leads ?? 0,
      websiteLeads: d.websiteLeads ?? 0,
    })),
  );
}

async function folderWith(db: Database, name: string, zone: string, rule: SeedRule = {}) {
  const account = await seedAccount(db, { accountName: `${name} account`, timezoneName: zone });
  const seeded = await seedRule(db, account.adAccountId, { folderName: name, ...rule });
  return { ...seeded, account };
}

const heldRun = (ruleId: number, at: Date, details: object, decision: string | null = null) => ({
  ruleId,
  slot: at,
  kind: 'manual',
  status: 'done',
  outcome: 'held',
  startedAt: at,
  details: { v: 1, objects: [], ...details },
  decision,
});

const names = (overview: AgencyOverview) => overview.results.map((r) => r.folder.name);
const rowOf = (overview: AgencyOverview, name: string) => overview.results.find((r) => r.folder.name === name)!;

eachDatabase((engine) => {
  describe(`agency overview on ${engine}`, () => {
    let api: TestApi;
    let db: Database;
    const ids: Record<string, { folderId: number; ruleId: number }> = {};

    beforeAll(async () => {
      api = await createTestApi(engine);
      db = api.dbh.db;
      const ny = 'America/New_York';

      // Quiet: under its CPL threshold ($20 a lead against $60), the biggest spender; its rule acted today.
      const quiet = await folderWith(db, 'Quiet Quarry', ny, { tasks: { trigger_cpl: { cpl: '60' } } });
      await readDays(db, quiet.account.adAccountId, ny, [
        { back: 0, spend: 150, leads: 8, age: -16 },
        // The later reading of the day wins.
        { back: 0, spend: 200, leads: 10, age: -14 },
        { back: 1, spend: 100, leads: 5, age: 3 },
        { back: 6, spend: 60, leads: 3 },
        // Before the 7 days: not counted.
        { back: 7, spend: 999, leads: 1 },
      ]);
      const acted = (action: string, at: Date, state = 'done') => ({
        ruleId: quiet.rule.id,
        folderId: quiet.folder.id,
        action,
        adId: 'ad-1',
        state,
        createdAt: at,
      });
      const [second] = await db
        .insert(rules)
        .values({ folderId: quiet.folder.id, name: 'Second', isActive: true, schedule: [], alertSchedule: [] })
        .returning();
      await db.insert(ruleActivity).values([
        acted('turn_off_ad', new Date('2024-03-05T13:00:00Z')),
        acted('raise_budget', new Date('2024-03-05T14:00:00Z')),
        { ...acted('turn_off_campaign', new Date('2024-03-05T14:30:00Z')), ruleId: second!.id },
        // Yesterday in New York (4 AM UTC today), an alert, a turn-off not confirmed yet: none counts.
        acted('turn_off_ad', new Date('2024-03-05T04:00:00Z')),
        acted('alert_sent', new Date('2024-03-05T14:00:00Z')),
        acted('turn_off_ad', new Date('2024-03-05T14:00:00Z'), 'pending'),
      ]);

      // Held: two runs waiting (one raising budgets), one dismissed; a little spend.
      const held = await folderWith(db, 'Bay Held', ny);
      await readDays(db, held.account.adAccountId, ny, [{ back: 0, spend: 40, leads: 2 }]);
      const planned = [{ objectId: 'a1' }, { objectId: 'a2' }];
      await db.insert(ruleRuns).values([
        heldRun(held.rule.id, new Date('2024-03-05T12:00:00Z'), { planned }),
        heldRun(held.rule.id, new Date('2024-03-05T13:00:00Z'), {
          planned: [],
          money: { added: 120.5, removed: 0, objects: 3, text: '+$120.50/day across 3 ad sets' },
        }),
        heldRun(held.rule.id, new Date('2024-03-05T11:00:00Z'), { planned }, 'dismissed'),
      ]);

      // Health: its token can no longer read the account; nothing spent.
      const unhealthy = await folderWith(db, 'Cove Health', 'Pacific/Auckland');
      await createHealthStore(db).recordCheck(
        unhealthy.account.adAccountId,
        'access',
        'problem',
        'not among the ad accounts the token can read',
        NOW,
      );

      // CPL over: $84 a lead today against the lowest threshold of its active rules ($60; a website_cpl).
      const costly = await folderWith(db, 'Dear Leads', 'Europe/London', {
        tasks: { trigger_cpl: { cpl: '90' }, website_cpl: { cpl: '60' } },
      });
      const [off] = await db
        .insert(rules)
        .values({ folderId: costly.folder.id, name: 'Off', isActive: false, schedule: [], alertSchedule: [] })
        .returning();
      await db
        .insert(ruleItems)
        .values({ ruleId: off!.id, type: 'rule_task', name: 'trigger_cpl', values: { cpl: '10' }, isActive: true });
      await readDays(db, costly.account.adAccountId, 'Europe/London', [
        { back: 0, spend: 840, leads: 0, websiteLeads: 10 },
      ]);

      // Spend with no leads: $120 spent today, over its no-leads task's $100.
      const wasting = await folderWith(db, 'Empty Echo', ny, { tasks: { spend_cpl_no_leads: { spend: '100' } } });
      await readDays(db, wasting.account.adAccountId, ny, [
        { back: 0, spend: 120 },
        { back: 2, spend: 30, leads: 1 },
      ]);
      // Spend with no leads under its task's $100: quiet.
      const under = await folderWith(db, 'Fine Fern', ny, { tasks: { spend_cpl_no_leads: { spend: '100' } } });
      await readDays(db, under.account.adAccountId, ny, [{ back: 0, spend: 50 }]);

      // Never read, rule off: at the end.
      const unread = await folderWith(db, 'Glen Unread', ny, { isActive: false });

      // A folder in the trash is not listed, whatever it holds.
      const trashed = await folderWith(db, 'Held Trash', ny);
      await db.update(folders).set({ isDeleted: true }).where(eq(folders.id, trashed.folder.id));
      await db.insert(ruleRuns).values(heldRun(trashed.rule.id, NOW, { planned }));

      for (const [key, seeded] of Object.entries({ quiet, held, unhealthy, costly, wasting, under, unread }))
        ids[key] = { folderId: seeded.folder.id, ruleId: seeded.rule.id };
    });
    afterAll(() => api?.close());

    it('orders by need: held runs and health problems, CPL over threshold, spend with no leads, then by spend', async () => {
      const overview = await agencyOverview(db, NOW);
      expect(names(overview)).toEqual([
        'Bay Held',
        'Cove Health',
        'Dear Leads',
        'Empty Echo',
        'Quiet Quarry',
        'Fine Fern',
        'Glen Unread',
      ]);
      expect(overview.count).toBe(7);
      expect(overview.generated_at).toBe(NOW.toISOString());
      expect(overview.results.map((r) => r.needs_attention.score)).toEqual([3, 3, 2, 1, 0, 0, 0]);
    });

    it('sums today and the last 7 days of the account’s zone from each day’s latest reading', async () => {
      const quiet = rowOf(await agencyOverview(db, NOW), 'Quiet Quarry');
      expect(quiet.today).toEqual({ spend: 200, leads: 10, cpl: 20, days_read: 1 });
      expect(quiet.week).toEqual({ spend: 360, leads: 18, cpl: 20, days_read: 3 });
      expect(quiet.read_at).not.toBeNull();
      expect(quiet.cpl_threshold).toBe(60);
      expect(quiet.cpl_over_threshold).toBe(false);
      expect(quiet.needs_attention.reasons).toEqual([]);
      expect(quiet.ad_account).toMatchObject({ timezone_name: 'America/New_York', currency: 'USD' });
      // Two rules turned off or changed three things since midnight in New York.
      expect({ rules: quiet.rules_acted_today, actions: quiet.actions_today }).toEqual({ rules: 2, actions: 3 });

      const unread = rowOf(await agencyOverview(db, NOW), 'Glen Unread');
      expect(unread.today).toEqual({ spend: null, leads: null, cpl: null, days_read: 0 });
      expect(unread.read_at).toBeNull();
      expect(unread.cpl_threshold).toBeNull();
    });

    it('says why a folder needs a person: held runs with their money, health, CPL over, spend with no leads', async () => {
      const overview = await agencyOverview(db, NOW);
      const held = rowOf(overview, 'Bay Held');
      expect(held.held_runs).toEqual({
        count: 2,
        turn_offs: 2,
        budget_added: 120.5,
        oldest: { rule_id: ids.held!.ruleId, run_id: expect.any(Number) },
      });
      expect(held.needs_attention.reasons).toEqual([{ kind: 'held_runs', count: 2, budget_added: 120.5 }]);

      const unhealthy = rowOf(overview, 'Cove Health');
      expect(unhealthy.health).toEqual([expect.objectContaining({ check: 'access', state: 'problem' })]);
      expect(unhealthy.needs_attention.reasons).toEqual([
        { kind: 'health', check: 'access', state: 'problem', detail: 'not among the ad accounts the token can read' },
      ]);
      expect(unhealthy.held_runs).toEqual({ count: 0, turn_offs: 0, budget_added: null, oldest: null });

      const costly = rowOf(overview, 'Dear Leads');
      // Website leads count when the account reports no other; the inactive rule's $10 is not a threshold.
      expect(costly.today).toMatchObject({ spend: 840, leads: 10, cpl: 84 });
      expect(costly.cpl_threshold).toBe(60);
      expect(costly.cpl_over_threshold).toBe(true);
      expect(costly.needs_attention.reasons).toEqual([{ kind: 'cpl_over', period: 'today', cpl: 84, threshold: 60 }]);

      expect(rowOf(overview, 'Empty Echo').needs_attention.reasons).toEqual([
        { kind: 'spend_no_leads', period: 'today', spend: 120 },
      ]);
      expect(rowOf(overview, 'Fine Fern').needs_attention).toEqual({ score: 0, reasons: [] });
    });

    it('answers the signed-in holders of read_rules only', async () => {
      const reader = await api.userWith(['read_rules']);
      const answer = await api.request(reader.token, { method: 'GET', url: '/api/overview/' });
      expect(answer.statusCode).toBe(200);
      const overview = answer.json() as AgencyOverview;
      // Held runs and health problems do not depend on the day: first whenever the test runs.
      expect(names(overview).slice(0, 2)).toEqual(['Bay Held', 'Cove Health']);
      expect(overview.count).toBe(7);
      const row: OverviewRow = overview.results[0]!;
      expect(Object.keys(row).sort()).toEqual(
        [
          'actions_today',
          'ad_account',
          'cpl_over_threshold',
          'cpl_threshold',
          'folder',
          'health',
          'held_runs',
          'needs_attention',
          'read_at',
          'rules_acted_today',
          'today',
          'week',
        ].sort(),
      );

      const logsOnly = await api.userWith(['view_logs']);
      const refused = await api.request(logsOnly.token, { method: 'GET', url: '/api/overview/' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: expect.any(String) });
      expect((await api.request(null, { method: 'GET', url: '/api/overview/' })).statusCode).toBe(401);
      const admin = await api.userWith('superuser');
      expect((await api.request(admin.token, { method: 'GET', url: '/api/overview/' })).statusCode).toBe(200);
    });
  });
});

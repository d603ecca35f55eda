/**
 * Budget rules run by the engine against the simulator over HTTP, on each database: a raise made
 * once whoever runs the hour (two workers at the same moment), the folder's 24-hour ceiling cutting
 * a second rule's raise and saying so, a lifetime budget refused with its reason, a raise rolled
 * back once when the ad set's cost rises past the rule's line, and the money a held run would add.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import type { DeliveryProfile, SimAdSet } from '../../../server/adplatform/simulator/world';
import type { DbHandle } from '../../../server/db/client';
import {
  accountSnapshots,
  folders,
  metaAdAccounts,
  ruleActivity,
  ruleRuns,
  rules,
  users,
} from '../../../server/db/schema/index';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import type { ConditionGroup } from '../../../shared/ruleConditions';
import type { RuleAction } from '../../../shared/ruleActions';
import { eachDatabase, freshDatabase } from '../../support/db';
import { engineContext, quietLog, seedRule } from './support';
import type { RuleRunDto } from '../../../shared/contracts';
import { findRun } from '../../../server/activity/runStore';

const START = '2026-03-02T15:00:00Z';
const T = Date.parse(START);
const HOUR = 3_600_000;

const profile = (cpl: number): DeliveryProfile => ({
  spendPerHour: 4,
  cpm: 20,
  ctrPct: 1.5,
  linkShare: 0.7,
  leads: { kind: 'per_spend', cpl },
  websiteShare: 0,
});

const cheap: ConditionGroup = {
  match: 'all',
  conditions: [
    { metric: 'cpl', window: 'lifetime', op: '<', value: 30 },
    { metric: 'leads', window: 'lifetime', op: '>=', value: 3 },
  ],
};
const raise = (percent: number): RuleAction => ({ kind: 'raise_budget', level: 'adset', change: { percent } });

eachDatabase((engine) => {
  describe(`budget rules on ${engine}`, () => {
    let dbh: DbHandle;
    let sim: Simulator;
    let client: GraphClient;
    let accountId: string;
    let winner: SimAdSet;
    let loser: SimAdSet;
    let lifetime: SimAdSet;
    const now = () => new Date(sim.clock.now());

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
    });
    afterAll(() => dbh.close());

    beforeEach(async () => {
      sim = await startSimulator({
        seed: 5,
        start: START,
        speed: 0,
        accounts: 1,
        campaignsPerAccount: 1,
        adsPerCampaign: 1,
        scenarios: [],
      });
      accountId = sim.world.accounts[0]!.accountId;
      client = new GraphClient({ baseUrl: sim.url, apiVersion: 'v25.0', accessToken: 't' });
      const campaign = (name: string, lifetimeBudget?: number) =>
        sim.world.addCampaign({
          accountId,
          name,
          // Ten days old: past learning (the winner with its 50 leads, the loser failed it).
          startTime: T - 240 * HOUR,
          stopTime: lifetimeBudget ? T + 30 * 24 * HOUR : undefined,
        });
      winner = sim.world.addAdSet(campaign('EDM Winner'), 'Winner ad set', { dailyBudgetCents: 5000 });
      sim.world.addAd(winner, 'Winner ad', profile(10));
      loser = sim.world.addAdSet(campaign('EDM Loser'), 'Loser ad set', { dailyBudgetCents: 5000 });
      sim.world.addAd(loser, 'Loser ad', profile(60));
      lifetime = sim.world.addAdSet(campaign('EDM Lifetime', 1), 'Lifetime ad set', { lifetimeBudgetCents: 100_000 });
      sim.world.addAd(lifetime, 'Lifetime ad', profile(10));
      await dbh.db
        .insert(metaAdAccounts)
        .values({ adAccountId: `act_${accountId}`, accountName: 'Budget account', timezoneName: 'UTC' })
        .onConflictDoNothing();
      // Each test's simulator names its objects alike (one seed): the last test's changes and readings
      // of the account are not this one's.
      await dbh.db.delete(ruleActivity);
      await dbh.db.delete(accountSnapshots);
    });
    afterEach(() => sim.close());

    async function budgetRule(action: RuleAction, conditions: ConditionGroup = cheap, name?: string) {
      const seeded = await seedRule(dbh.db, `act_${accountId}`, { ruleName: name ?? 'Scale winners', tasks: {} });
      await dbh.db.update(rules).set({ conditions, action }).where(eq(rules.id, seeded.rule.id));
      return seeded.rule;
    }
    const ctx = (extra = {}) => engineContext(dbh.db, client, now, extra);
    const slot = () => new Date(Math.floor(now().getTime() / HOUR) * HOUR);
    const budgetWrites = (id: string) => sim.writes.filter((w) => w.id === id && 'daily_budget' in w.changed);
    const entriesOf = (ruleId: number) =>
      dbh.db.select().from(ruleActivity).where(eq(ruleActivity.ruleId, ruleId)).orderBy(ruleActivity.id);

    it('raises the cheap ad set once when two workers run the same hour, and records the money', async () => {
      const rule = await budgetRule(raise(20));
      const run = { ruleId: rule.id, slot: slot(), kind: 'run' as const };
      await Promise.all([runSlot(ctx(), run), runSlot(ctx(), run)]);

      expect(sim.world.adsets.get(winner.id)!.dailyBudgetCents).toBe(6000);
      expect(sim.world.adsets.get(loser.id)!.dailyBudgetCents).toBe(5000);
      expect(budgetWrites(winner.id)).toHaveLength(1);
      const entries = await entriesOf(rule.id);
      expect(entries.map((e) => [e.action, e.adId, e.budgetBefore, e.budgetAfter, e.state])).toEqual([
        ['raise_budget', winner.id, 5000, 6000, 'done'],
      ]);
      expect(entries[0]!.reason.Budget).toBe('$50.00 a day → $60.00 a day');

      const [row] = await dbh.db
        .select({ id: ruleRuns.id })
        .from(ruleRuns)
        .where(and(eq(ruleRuns.ruleId, rule.id), eq(ruleRuns.kind, 'run')));
      const record = (await findRun(dbh.db, row!.id)) as RuleRunDto;
      expect(record.money?.text).toBe('+$10/day across 1 ad set');
      const winnerRecord = record.objects!.find((o) => o.id === winner.id)!;
      expect(winnerRecord.type).toBe('adset');
      expect(winnerRecord.conditions!.map((c) => c.result)).toEqual([true, true]);
      expect(winnerRecord.conditions![0]!.shown).toMatch(/^CPL \(lifetime\) \$10\.\d\d < \$30\.00 ✓$/);
      const refused = record.objects!.find((o) => o.id === lifetime.id)!;
      expect(refused.verdicts.conditions).toBe('under_threshold');
    });

    it("cuts a second rule's raise at the folder's 24-hour ceiling and says so", async () => {
      const first = await budgetRule(raise(20), cheap, 'Scale a little');
      await runSlot(ctx(), { ruleId: first.id, slot: slot(), kind: 'run' });
      sim.advanceHours(1);
      const second = await budgetRule(raise(50), cheap, 'Scale a lot');
      const [{ folderId }] = (await dbh.db.select().from(rules).where(eq(rules.id, first.id))) as unknown as [
        { folderId: number },
      ];
      await dbh.db.update(rules).set({ folderId }).where(eq(rules.id, second.id));
      // Only the growth ceilings here: no change counts as significant.
      await dbh.db
        .update(folders)
        .set({ budgetLimits: { significant_pct: 100 } })
        .where(eq(folders.id, folderId));
      await runSlot(ctx(), { ruleId: second.id, slot: slot(), kind: 'run' });

      // $50 a day 24 hours ago: at most $75 now, whatever the two rules asked ($60, then +50 % = $90).
      expect(sim.world.adsets.get(winner.id)!.dailyBudgetCents).toBe(7500);
      const [entry] = await entriesOf(second.id);
      expect(entry!.reason.Ceiling).toBe('+50% asked, +25% allowed: 24 h ceiling');
    });

    it('rolls a raise back, once, when the cost rises past the line within the window', async () => {
      const rule = await budgetRule(
        { ...raise(20), rollback_hours: 48 },
        {
          match: 'all',
          conditions: [{ metric: 'cpl', window: 'today', op: '<', value: 30 }],
        },
      );
      await runSlot(ctx(), { ruleId: rule.id, slot: slot(), kind: 'run' });
      expect(sim.world.adsets.get(winner.id)!.dailyBudgetCents).toBe(6000);

      // The ad set's leads get dear: today's CPL goes past $30.
      for (const ad of sim.world.ads.values()) if (ad.adsetId === winner.id) ad.profile = profile(200);
      sim.advanceHours(6);
      await runSlot(ctx(), { ruleId: rule.id, slot: slot(), kind: 'run' });
      sim.advanceHours(1);
      await runSlot(ctx(), { ruleId: rule.id, slot: slot(), kind: 'run' });

      expect(sim.world.adsets.get(winner.id)!.dailyBudgetCents).toBe(5000);
      const entries = await entriesOf(rule.id);
      const restores = entries.filter((e) => e.action === 'restore_budget');
      expect(restores).toHaveLength(1);
      expect(restores[0]!.reversesId).toBe(entries.find((e) => e.action === 'raise_budget')!.id);
      expect(restores[0]!.reason['Rolled back']).toMatch(/within 48 h/);
    });

    it('holds a run that would add more daily budget than the folder allows, naming the money', async () => {
      const rule = await budgetRule({ kind: 'raise_budget', level: 'adset', change: { to_amount: 2000 } });
      const [folder] = await dbh.db.select({ id: rules.folderId }).from(rules).where(eq(rules.id, rule.id));
      await dbh.db
        .update(folders)
        .set({ budgetLimits: { daily_increase_limit: 100, growth_24h_pct: 500, growth_7d_pct: 1000 } })
        .where(eq(folders.id, folder!.id));
      const result = await runSlot(ctx(), { ruleId: rule.id, slot: slot(), kind: 'run' });

      expect(result.status).toBe('held');
      expect(result.note).toMatch(/would add \$\d[\d,.]* a day to daily budgets .*limit \$100\.00/);
      expect(sim.world.adsets.get(winner.id)!.dailyBudgetCents).toBe(5000);
      const held = (await entriesOf(rule.id)).find((e) => e.action === 'run_held')!;
      expect(held.reason.Budgets).toMatch(/^\+\$[\d,]+\/day across 1 ad set, waiting for approval$/);

      // Approved: the raise is made as planned (the budget has not moved since), once, and recorded.
      const [user] = await dbh.db
        .insert(users)
        .values({ email: `approver${rule.id}@example.com`, passwordHash: 'x', firstName: 'Ada' })
        .returning();
      const service = createRuleEngineService({ db: dbh.db, client, now, log: quietLog });
      const approved = await service.approve(held.runId!, {
        id: user!.id,
        first_name: 'Ada',
        last_name: 'Approver',
        email: user!.email,
      });
      expect(approved.note).toMatch(/approved by Ada Approver: 0 of 0 planned turn-offs made, 1 of 1 budget changes/);
      const raised = sim.world.adsets.get(winner.id)!.dailyBudgetCents!;
      expect(raised).toBeGreaterThan(5000);
      const [made] = (await entriesOf(rule.id)).filter((e) => e.action === 'raise_budget');
      expect(made).toMatchObject({ state: 'done', budgetBefore: 5000, budgetAfter: raised });
      expect(made!.reason.Approved).toBe('by Ada Approver');
      const approval = await findRun(dbh.db, approved.runId!);
      expect(approval?.budget_changes).toEqual([
        expect.objectContaining({
          object_id: winner.id,
          campaign_name: 'EDM Winner',
          before: 50,
          allowed: raised / 100,
        }),
      ]);
    });

    it('turns on the paused ads whose conditions hold, once, whoever runs the hour', async () => {
      const winnerAd = [...sim.world.ads.values()].find((ad) => ad.adsetId === winner.id)!;
      const loserAd = [...sim.world.ads.values()].find((ad) => ad.adsetId === loser.id)!;
      await client.setStatuses([
        { id: winnerAd.id, status: 'PAUSED' },
        { id: loserAd.id, status: 'PAUSED' },
      ]);
      sim.advanceHours(1);
      const rule = await budgetRule({ kind: 'turn_on', level: 'ad' });
      const run = { ruleId: rule.id, slot: slot(), kind: 'run' as const };
      const results = await Promise.all([runSlot(ctx(), run), runSlot(ctx(), run)]);

      expect(results.filter((r) => r.status === 'done').map((r) => r.note)).toEqual(['0 turn-offs; 1 turned on']);
      expect(sim.inspect(winnerAd.id).status).toBe('ACTIVE');
      expect(sim.inspect(loserAd.id).status).toBe('PAUSED');
      const entries = await entriesOf(rule.id);
      expect(entries.map((e) => [e.action, e.adId, e.state])).toEqual([['rule_turn_on_ad', winnerAd.id, 'done']]);
      expect(sim.writes.filter((w) => w.id === winnerAd.id && w.status === 'ACTIVE')).toHaveLength(1);
    });

    it("previews a budget rule's changes and their money without changing anything", async () => {
      const rule = await budgetRule(raise(20));
      const service = createRuleEngineService({ db: dbh.db, client, now, log: quietLog });
      const preview = await service.preview(rule.id);

      expect(preview.money?.text).toBe('+$10/day across 1 ad set');
      expect(preview.budget_changes).toEqual([
        expect.objectContaining({
          action: 'raise_budget',
          object_id: winner.id,
          object_type: 'adset',
          name: 'Winner ad set',
          campaign_name: 'EDM Winner',
          before: 50,
          asked: 60,
          allowed: 60,
          daily_delta: 10,
          cut: null,
        }),
      ]);
      expect(preview.conditions![0]).toMatchObject({ object_id: winner.id, result: true });
      expect(preview.conditions!.find((c) => c.object_id === loser.id)?.result).toBe(false);
      expect(sim.world.adsets.get(winner.id)!.dailyBudgetCents).toBe(5000);
      expect(await entriesOf(rule.id)).toEqual([]);
    });
  });
});

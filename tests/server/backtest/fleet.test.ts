/**
 * The backtest across a fleet of folders (server/backtest/fleet.ts): an edit's old and new rules
 * replayed on each folder's recorded history say what each would have done — the same numbers as
 * the single backtest of that rule over the same days, per folder and in total.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewFleet, type FleetRule, type FleetRuleChange, type FleetTotals } from '../../../server/backtest/fleet';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../../server/backtest/service';
import type { DbHandle } from '../../../server/db/client';
import { folders, ruleExemptions } from '../../../server/db/schema/index';
import { HOUR_MS } from '../../../server/history/reading';
import { CARRIED_OVER_JUDGING, NEW_RULE_JUDGING } from '../../../shared/judging';
import { eachDatabase, freshDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';
import { everyHour, readAt, ruleBody } from './support';

const NO_LIMIT = { maxShare: 1, maxActions: 1000 };
const NOW = new Date('2024-03-05T12:30:00Z');
const DAYS = 2;
/** Readings from the start of 2024-03-04: the span's first 11 hours (from 13:00 on 03-03) have none. */
const FIRST_READING = Date.parse('2024-03-04T00:00:20Z');
const HOURS_READ = 37;
const ZERO: FleetTotals = { paused: 0, revived: 0, changed: 0, spend_stopped: 0, false_pauses: 0 };

// Revive on, so late leads turn an ad back on; the old values are looser than the new ones.
const judging = { ...CARRIED_OVER_JUDGING, carried_over: false, revive_hours: 24 };
const loose = ruleBody(
  { spend_cpl_no_leads: { spend: '150' }, trigger_cpl: { cpl: '120' } },
  everyHour(),
  'UTC',
  judging,
);
const strict = ruleBody(
  { spend_cpl_no_leads: { spend: '60' }, trigger_cpl: { cpl: '45' } },
  everyHour(),
  'UTC',
  judging,
);

/** One account's ads, their spend scaled by `rate`: a dud, a late converter, and converters at three costs per lead. */
function adsAt(tag: string, hour: number, rate: number) {
  const campaignId = `${tag}-c1`;
  const spend = (perHour: number) => Math.round(perHour * rate * hour * 100) / 100;
  return [
    { id: `${tag}-dud`, campaignId, spend: spend(10) },
    // Its leads come in at the 20th hour: a pause before then is a converter paused (a false pause).
    { id: `${tag}-late`, campaignId, spend: spend(10), leads: hour >= 20 ? 6 : 0 },
    { id: `${tag}-cheap`, campaignId, spend: spend(4), leads: Math.floor(hour / 3) },
    { id: `${tag}-pricey`, campaignId, spend: spend(12), leads: hour >= 4 ? 1 + Math.floor(hour / 12) : 0 },
    // $40–$65 a lead (× rate): under the old CPL threshold, at times over the new one.
    { id: `${tag}-middling`, campaignId, spend: spend(8), leads: hour >= 6 ? 1 + Math.floor(hour / 8) : 0 },
  ];
}

const sum = (list: FleetTotals[]): FleetTotals => ({
  paused: list.reduce((n, t) => n + t.paused, 0),
  revived: list.reduce((n, t) => n + t.revived, 0),
  changed: list.reduce((n, t) => n + t.changed, 0),
  spend_stopped: Math.round(list.reduce((n, t) => n + t.spend_stopped, 0) * 100) / 100,
  false_pauses: list.reduce((n, t) => n + t.false_pauses, 0),
});

eachDatabase((engine) => {
  describe(`backtest across a fleet on ${engine}`, () => {
    let dbh: DbHandle;
    /** Three folders with history (the first's rule exempts its dud), one without, one in the trash. */
    const folder = { a: 0, b: 0, c: 0, empty: 0, trashed: 0 };
    const rule = { a: 0, b: 0, c: 0, empty: 0, trashed: 0 };

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const rates = { a: 1, b: 1.6, c: 0.7, empty: 1, trashed: 1 };
      for (const tag of ['a', 'b', 'c', 'empty', 'trashed'] as const) {
        const account = await seedAccount(dbh.db, { timezoneName: 'UTC' });
        const seeded = await seedRule(dbh.db, account.adAccountId, {
          folderName: `Fleet ${tag}`,
          everyDayAt: [...Array(24).keys()],
        });
        folder[tag] = seeded.folder.id;
        rule[tag] = seeded.rule.id;
        if (tag === 'empty') continue;
        // One reading days before the rest: only a rule reading 4 days before the span sees it.
        if (tag === 'c') await readAt(dbh.db, account.adAccountId, '2024-02-28T12:00:20Z', adsAt(tag, 1, rates[tag]));
        for (let h = 0; h < HOURS_READ; h += 1)
          await readAt(
            dbh.db,
            account.adAccountId,
            new Date(FIRST_READING + h * HOUR_MS).toISOString(),
            adsAt(tag, h, rates[tag]),
          );
      }
      await dbh.db
        .insert(ruleExemptions)
        .values({ ruleId: rule.a, objectId: 'a-dud', createdAt: new Date('2024-03-01T00:00:00Z') });
      await dbh.db.update(folders).set({ isDeleted: true }).where(eq(folders.id, folder.trashed));
    });
    afterAll(() => dbh.close());

    const backtest = async (request: BacktestRequest) =>
      runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), { now: NOW, limits: NO_LIMIT });

    const edit = (): FleetRuleChange[] => [
      { folderId: folder.a, ruleId: rule.a, before: loose, after: strict },
      { folderId: folder.b, ruleId: rule.b, before: loose, after: strict },
      // A rule the edit adds to the folder: nothing before.
      { folderId: folder.b, ruleId: null, before: null, after: loose },
      { folderId: folder.c, ruleId: rule.c, before: loose, after: strict },
      { folderId: folder.empty, ruleId: rule.empty, before: loose, after: strict },
      { folderId: folder.trashed, ruleId: rule.trashed, before: loose, after: strict },
    ];

    it('says per folder what the old and the new values would have done, each as the single backtest of that rule', async () => {
      const preview = await previewFleet(dbh.db, edit(), {
        now: NOW,
        days: DAYS,
        limits: NO_LIMIT,
        accountsPerRead: 2,
      });
      expect(preview.days).toBe(DAYS);
      expect([preview.from, preview.to]).toEqual(['2024-03-03T13:00:00.000Z', '2024-03-05T13:00:00.000Z']);
      // The trashed folder is left out; the rest in the order the edit names them.
      expect(preview.folders.map((f) => [f.folder_id, f.folder_name, f.rules])).toEqual([
        [folder.a, 'Fleet a', 1],
        [folder.b, 'Fleet b', 2],
        [folder.c, 'Fleet c', 1],
        [folder.empty, 'Fleet empty', 1],
      ]);
      const single = async (folderId: number, ruleId: number | null, body: FleetRule) => {
        const result = await backtest({ folder: folderId, rule_id: ruleId, days: DAYS, rule: body });
        return {
          totals: {
            paused: result.totals.pauses,
            revived: result.totals.revives,
            changed: 0,
            spend_stopped: result.totals.spend_stopped,
            false_pauses: result.totals.converters_paused,
          },
          withoutData: result.slots_without_data,
        };
      };
      for (const tag of ['a', 'c'] as const) {
        const shown = preview.folders.find((f) => f.folder_id === folder[tag])!;
        const [before, after] = [
          await single(folder[tag], rule[tag], loose),
          await single(folder[tag], rule[tag], strict),
        ];
        expect({ before: shown.before, after: shown.after }, tag).toEqual({
          before: before.totals,
          after: after.totals,
        });
        expect(shown.slots_without_data).toBe(11);
        expect(before.withoutData).toBe(11);
      }
      const b = preview.folders.find((f) => f.folder_id === folder.b)!;
      const bSaved = [await single(folder.b, rule.b, loose), await single(folder.b, rule.b, strict)];
      const bAdded = await single(folder.b, null, loose);
      expect(b.before).toEqual(bSaved[0]!.totals);
      expect(b.after).toEqual(sum([bSaved[1]!.totals, bAdded.totals]));
      // What the numbers show: pauses, revives of the late converter, false pauses, spend stopped.
      expect(b.after.paused).toBeGreaterThan(0);
      expect(b.after.revived).toBeGreaterThan(0);
      expect(b.after.false_pauses).toBeGreaterThan(0);
      expect(b.after.spend_stopped).toBeGreaterThan(0);
    });

    it('replays each side on the days and metrics its own backtest reads, when the old and new rules read differently', async () => {
      // The new values judge maturity (4 days read before the span) and allow for late website leads.
      const careful = { ...strict, judging: { ...NEW_RULE_JUDGING, lag_hours: 6, revive_hours: 24 } };
      const preview = await previewFleet(
        dbh.db,
        [{ folderId: folder.c, ruleId: rule.c, before: loose, after: careful }],
        { now: NOW, days: DAYS, limits: NO_LIMIT },
      );
      const single = (body: FleetRule) => backtest({ folder: folder.c, rule_id: rule.c, days: DAYS, rule: body });
      const [before, after] = [await single(loose), await single(careful)];
      expect(before.slots_without_data).toBe(11);
      expect(after.slots_without_data).toBe(0);
      expect(preview.folders[0]).toMatchObject({
        before: {
          paused: before.totals.pauses,
          revived: before.totals.revives,
          spend_stopped: before.totals.spend_stopped,
        },
        after: {
          paused: after.totals.pauses,
          revived: after.totals.revives,
          spend_stopped: after.totals.spend_stopped,
        },
        slots_without_data: 11,
      });
      expect(after.totals.pauses).toBeGreaterThan(0);
    });

    it('pauses more under the stricter values, in each folder and in total, and the totals add the folders up', async () => {
      // Without revive, each object is paused once at most: the stricter values pause more of them.
      const once = (body: FleetRule) => ({ ...body, judging: CARRIED_OVER_JUDGING });
      const changes = edit().map((c) => ({
        ...c,
        before: c.before && once(c.before),
        after: c.after && once(c.after),
      }));
      const preview = await previewFleet(dbh.db, changes, { now: NOW, days: DAYS, limits: NO_LIMIT });
      for (const tag of ['a', 'c'] as const) {
        const shown = preview.folders.find((f) => f.folder_id === folder[tag])!;
        expect(shown.after.paused, tag).toBeGreaterThan(shown.before.paused);
      }
      expect(preview.totals.after.paused).toBeGreaterThan(preview.totals.before.paused);
      expect(preview.totals.folders).toBe(4);
      expect(preview.totals.rules).toBe(5);
      expect(preview.totals.before).toEqual(sum(preview.folders.map((f) => f.before)));
      expect(preview.totals.after).toEqual(sum(preview.folders.map((f) => f.after)));
    });

    it('counts nothing for a side without the rule, and nothing but hours without data where there is no history', async () => {
      const preview = await previewFleet(
        dbh.db,
        [
          { folderId: folder.a, ruleId: null, before: null, after: strict },
          { folderId: folder.c, ruleId: rule.c, before: strict, after: null },
          { folderId: folder.empty, ruleId: rule.empty, before: loose, after: strict },
        ],
        { now: NOW, days: DAYS, limits: NO_LIMIT },
      );
      const [a, c, empty] = preview.folders;
      expect(a!.before).toEqual(ZERO);
      expect(a!.after.paused).toBeGreaterThan(0);
      expect(c!.after).toEqual(ZERO);
      expect(c!.before.paused).toBeGreaterThan(0);
      expect(empty).toMatchObject({ before: ZERO, after: ZERO, slots_without_data: DAYS * 24 });
    });

    it("applies a saved rule's exemptions: its exempt ad is not paused, as in the single backtest with the rule", async () => {
      const preview = await previewFleet(
        dbh.db,
        [
          { folderId: folder.a, ruleId: rule.a, before: strict, after: strict },
          { folderId: folder.a, ruleId: null, before: strict, after: strict },
        ],
        { now: NOW, days: DAYS, limits: NO_LIMIT },
      );
      const withRule = await backtest({ folder: folder.a, rule_id: rule.a, days: DAYS, rule: strict });
      const unsaved = await backtest({ folder: folder.a, days: DAYS, rule: strict });
      expect(withRule.results.some((r) => r.object_id === 'a-dud')).toBe(false);
      expect(unsaved.results.some((r) => r.object_id === 'a-dud')).toBe(true);
      expect(preview.folders[0]!.before.paused).toBe(withRule.totals.pauses + unsaved.totals.pauses);
    });

    it('refuses a rule of another folder, a side that cannot be tried and a span past 30 days', async () => {
      const refusal = (changes: FleetRuleChange[], days = DAYS) =>
        previewFleet(dbh.db, changes, { now: NOW, days }).then(
          () => null,
          (error: { statusCode?: number; body?: unknown }) => [error.statusCode, error.body],
        );
      expect(await refusal([{ folderId: folder.a, ruleId: rule.b, before: loose, after: strict }])).toEqual([
        400,
        { 'changes.0.ruleId': ['This rule is not in the folder.'] },
      ]);
      const noTask = { ...strict, rule_task: strict.rule_task.map((t) => ({ ...t, is_active: false })) };
      expect(await refusal([{ folderId: folder.a, ruleId: null, before: loose, after: noTask }])).toEqual([
        400,
        {
          'changes.0.after': {
            rule_task: { non_field_errors: ['Turn on at least one task to try the rule on history.'] },
          },
        },
      ]);
      expect((await refusal([], 31))?.[0]).toBe(400);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleActivity } from '../../../server/db/schema/index';
import { impactReport } from '../../../server/impact/report';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { readAt } from '../backtest/support';
import { seedAccount, seedRule } from '../run/support';

const NOW = new Date('2024-03-05T12:00:00Z');
const at = (day: number, h: number) => new Date(Date.UTC(2024, 2, day, h, 0, 20)).toISOString();

eachDatabase((engine) => {
  describe(`impact report on ${engine}`, () => {
    let api: TestApi;
    let ruleId: number;
    let folderId: number;

    beforeAll(async () => {
      api = await createTestApi(engine);
      const db = api.dbh.db;
      const account = await seedAccount(db);
      const seeded = await seedRule(db, account.adAccountId, { tasks: { spend_cpl_no_leads: { spend: '50' } } });
      ruleId = seeded.rule.id;
      folderId = seeded.folder.id;
      // $5 an hour each from 2024-03-04 00:00; all three turned off at 2024-03-05 06:00.
      for (let t = 0; t <= 36; t += 1) {
        const hours = Math.min(t, 30);
        await readAt(db, account.adAccountId, at(4 + Math.floor(t / 24), t % 24), [
          { id: 'dud', spend: 5 * hours, on: t < 30 },
          // Two leads of before the turn-off are reported from 09:00 on: settled, it no longer crosses.
          { id: 'late', spend: 5 * hours, leads: t >= 33 ? 2 : 0, on: t < 30 },
          // Undone at 08:00: delivering again, 3 leads by noon.
          { id: 'undone', spend: 5 * (t <= 30 ? t : t - 2), leads: t >= 34 ? 3 : 0, on: t < 30 || t >= 32 },
        ]);
      }
      const off = (adId: string) => ({
        ruleId,
        folderId,
        action: 'turn_off_ad',
        adId,
        objectType: 'ad',
        reason: { Spend: '$150.00 > $50.00', Leads: '0', Ad: `Ad ${adId}` },
        createdAt: new Date('2024-03-05T06:00:30Z'),
      });
      const [, , undone] = await db
        .insert(ruleActivity)
        .values([off('dud'), off('late'), off('undone')])
        .returning();
      const user = await api.userWith(['view_logs']);
      await db.insert(ruleActivity).values({
        ruleId,
        folderId,
        action: 'turn_on_ad',
        adId: 'undone',
        objectType: 'ad',
        actorId: user.id,
        reason: { Undo: `of entry #${undone!.id}` },
        createdAt: new Date('2024-03-05T08:00:30Z'),
      });
    });
    afterAll(() => api?.close());

    it('counts turn-offs and undos, estimates spend avoided from the rate before × hours off, names false pauses', async () => {
      const report = await impactReport(api.dbh.db, { kind: 'rule', id: ruleId }, 7, NOW);
      const byId = Object.fromEntries(report.pauses.map((p) => [p.object_id, p]));
      // Rate: $120 over the 24 h before 06:00 = $5/h. Off 5 h 59.5 min until noon; cap $240/day.
      expect(byId.dud).toMatchObject({
        spend_rate: 5,
        hours_off: 5.99,
        budget_cap: 59.92,
        spend_avoided: 29.96,
        false_pause: null,
      });
      expect(byId.late).toMatchObject({ spend_avoided: 29.96, false_pause: 'settled_under_threshold' });
      expect(byId.undone).toMatchObject({
        back_on_by: 'undo',
        hours_off: 2,
        spend_avoided: 10,
        false_pause: 'undone',
        leads_brought_back: 3,
      });
      expect(report.totals).toEqual({
        turn_offs: 3,
        revives: 0,
        undos: 1,
        spend_avoided: 69.92,
        false_pauses: 2,
        leads_brought_back: 3,
        budget_added: 0,
        budget_removed: 0,
      });
      expect(report.by_day.at(-1)).toEqual({ date: '2024-03-05', pauses: 3, spend_avoided: 69.92 });
      expect(report.by_day).toHaveLength(8);
      expect(report.method[0]).toMatch(/^Spend avoided is estimated per turn-off/);
      const folder = await impactReport(api.dbh.db, { kind: 'folder', id: folderId }, 30, NOW);
      expect(folder.totals.turn_offs).toBe(3);
      expect(folder.scope.name).toMatch(/^Folder/);
    });

    it('exports the report as CSV, and answers bad requests clearly', async () => {
      const user = await api.userWith(['view_logs']);
      // The route reports up to now: one turn-off of today, its reason with a comma and a formula.
      await api.dbh.db.insert(ruleActivity).values({
        ruleId,
        folderId,
        action: 'turn_off_ad',
        adId: 'today',
        objectType: 'ad',
        reason: { Spend: '$60.00 > $50.00', Ad: '=Ad, today' },
      });
      const csv = await api.request(user.token, {
        method: 'GET',
        url: `/api/impact/export/?scope=rule&id=${ruleId}&days=30`,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = csv.body.trim().split('\r\n');
      expect(lines[0]).toBe(
        'turned_off_at,rule,folder,object_type,object_id,name,reason,back_on_at,back_on_by,hours_off,spend_per_hour_before,budget_cap,spend_avoided_estimate,false_pause,leads_brought_back',
      );
      expect(lines).toHaveLength(2);
      const ruleName = (await impactReport(api.dbh.db, { kind: 'rule', id: ruleId }, 7, NOW)).scope.name;
      expect(lines[1]).toContain(`,${ruleName},`);
      expect(lines[1]).toContain(`,ad,today,"'=Ad, today","Spend: $60.00 > $50.00; Ad: =Ad, today",,,0,,,0,,0`);
      const bad = await api.request(user.token, { method: 'GET', url: '/api/impact/?days=400' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ days: ['The impact report covers the last 7 or 30 days.'] });
      expect((await api.request(user.token, { method: 'GET', url: '/api/impact/?scope=rule' })).json()).toEqual({
        id: ['Name the rule whose impact to show.'],
      });
      const stranger = await api.userWith(['read_rules']);
      expect((await api.request(stranger.token, { method: 'GET', url: '/api/impact/' })).statusCode).toBe(403);
    });
  });
});

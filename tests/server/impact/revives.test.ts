import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleActivity } from '../../../server/db/schema/index';
import { impactReport } from '../../../server/impact/report';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';

const NOW = new Date('2024-03-05T12:00:00Z');

eachDatabase((engine) => {
  describe(`impact report on ${engine}: revives`, () => {
    let api: TestApi;
    let ruleId: number;

    beforeAll(async () => {
      api = await createTestApi(engine);
      const db = api.dbh.db;
      const account = await seedAccount(db);
      const seeded = await seedRule(db, account.adAccountId, { tasks: { spend_cpl_no_leads: { spend: '50' } } });
      ruleId = seeded.rule.id;
      const folderId = seeded.folder.id;
      const person = await api.userWith(['view_logs']);
      const entry = (action: string, adId: string, hour: number, actorId: number | null) => ({
        ruleId,
        folderId,
        action,
        adId,
        objectType: 'ad',
        actorId,
        reason: { Ad: `Ad ${adId}` },
        createdAt: new Date(Date.UTC(2024, 2, 5, hour, 0, 30)),
      });
      await db.insert(ruleActivity).values([
        entry('turn_off_ad', 'scheduled', 1, null),
        entry('turn_off_ad', 'run-now', 1, null),
        entry('turn_off_ad', 'undone', 1, null),
        // Revived by a scheduled run (no person) and by a run a person started with Run now.
        entry('revive_ad', 'scheduled', 5, null),
        entry('revive_ad', 'run-now', 6, person.id),
        // A person's Undo.
        entry('turn_on_ad', 'undone', 7, person.id),
      ]);
    });
    afterAll(() => api?.close());

    it('counts a revive as a revive whoever started the run, and an undo as an undo', async () => {
      const report = await impactReport(api.dbh.db, { kind: 'rule', id: ruleId }, 7, NOW);
      expect(report.totals).toMatchObject({ turn_offs: 3, revives: 2, undos: 1, false_pauses: 3 });
      const byId = Object.fromEntries(report.pauses.map((p) => [p.object_id, p]));
      expect(byId['run-now']).toMatchObject({ back_on_by: 'revive', false_pause: 'revived', hours_off: 5 });
      expect(byId.scheduled).toMatchObject({ back_on_by: 'revive', false_pause: 'revived' });
      expect(byId.undone).toMatchObject({ back_on_by: 'undo', false_pause: 'undone' });
    });
  });
});

/**
 * A rule's attribution window (its judging settings): saved when Meta reports it, refused with the
 * reason when Meta removed it (7d_view, 28d_view), and a rule stored on a removed one answered as
 * stored, so the editor can say why it cannot judge.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../../server/db/schema/index';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount, RULES_ADMIN } from './fixtures';

eachDatabase((engine) => {
  describe(`a rule's attribution window on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let ruleId: number;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      const folder = await createFolder(api, admin.token, await insertAccount(api));
      ruleId = folder.rules[0]!.id;
    });
    afterAll(() => api.close());

    const patch = (judging: Record<string, unknown>) =>
      call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, { judging });

    it('starts on Meta’s default and saves a window Meta reports', async () => {
      const before = (await call(api, admin.token, 'GET', `/api/rule/${ruleId}/`)).json();
      expect(before.judging.attribution_window).toBeNull();
      const saved = await patch({ attribution_window: '1d_click' });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().judging).toMatchObject({ attribution_window: '1d_click', carried_over: false });
      expect((await patch({ attribution_window: null })).json().judging.attribution_window).toBeNull();
    });

    it('refuses a window Meta removed, saying why and what to choose, and keeps the rule as it was', async () => {
      for (const [window, name] of [
        ['7d_view', '7-day view'],
        ['28d_view', '28-day view'],
      ]) {
        const refused = await patch({ attribution_window: window });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          'judging.attribution_window': [
            `Meta no longer reports ${name} attribution (since 12 January 2026): choose 1-day click, 7-day click, 1-day view or Meta’s default`,
          ],
        });
      }
      expect((await patch({ attribution_window: '3d_click' })).json()).toEqual({
        'judging.attribution_window': ['Must be one of 1d_click, 7d_click, 1d_view, or null for Meta’s default'],
      });
      const after = (await call(api, admin.token, 'GET', `/api/rule/${ruleId}/`)).json();
      expect(after.judging.attribution_window).toBeNull();
    });

    it('answers a rule stored on a removed window as stored', async () => {
      const [row] = await api.dbh.db.select({ judging: rules.judging }).from(rules).where(eq(rules.id, ruleId));
      await api.dbh.db
        .update(rules)
        .set({ judging: { ...row!.judging, attribution_window: '28d_view' } })
        .where(eq(rules.id, ruleId));
      const stored = await call(api, admin.token, 'GET', `/api/rule/${ruleId}/`);
      expect(stored.statusCode, stored.body).toBe(200);
      expect(stored.json().judging.attribution_window).toBe('28d_view');
    });
  });
});

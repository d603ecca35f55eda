/**
 * A rule's conditions and action, and a folder's budget limits, through the API: saved and answered
 * as sent, each refusal under the field it is about, PATCH leaving what it does not name, a rule
 * acting on its conditions alone, the audit log's text, and the engine reading them back.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folders, rules } from '../../../server/db/schema/index';
import { loadEngineRule } from '../../../server/run/rulesSource';
import { DEFAULT_BUDGET_LIMITS } from '../../../shared/budgetLimits';
import { ACTION_MESSAGES } from '../../../shared/ruleActions';
import { CONDITION_MESSAGES } from '../../../shared/ruleConditions';
import { RULE_MESSAGES } from '../../../shared/rules';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount, RULES_ADMIN, type Account } from './fixtures';

const spendToday = { metric: 'spend', window: 'today', op: '>=', value: 40 };
const cplOverCampaign = {
  metric: 'cpl',
  window: 'last_7_days',
  op: '>',
  compare_to: { metric: 'cpl', window: 'last_7_days', of: 'campaign', factor: 1.5 },
};
/** Three deep, a metric against another metric at the bottom. */
const nested = {
  match: 'all',
  conditions: [
    spendToday,
    {
      match: 'any',
      conditions: [
        { metric: 'ctr', window: 'yesterday', op: '<', value: 0.5 },
        {
          match: 'all',
          conditions: [cplOverCampaign, { metric: 'show_up_rate', window: 'lifetime', op: '<', value: 25 }],
        },
      ],
    },
  ],
};
const one = (condition: Record<string, unknown>) => ({ match: 'all', conditions: [condition] });
const turnOffAd = { kind: 'turn_off', level: 'ad' };
const raiseAdSet = { kind: 'raise_budget', level: 'adset', change: { percent: 20 }, floor: null, ceiling: 500 };

eachDatabase((engine) => {
  describe(`a rule's conditions and action on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let account: Account;
    let folderId: number;
    let ruleId: number;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      account = await insertAccount(api, { accountName: 'Conditions Account' });
      const folder = await createFolder(api, admin.token, account, { name: 'Conditions Folder' });
      folderId = folder.id;
      ruleId = folder.rules[0]!.id;
    });
    afterAll(() => api.close());

    const get = async (id = ruleId) => (await call(api, admin.token, 'GET', `/api/rule/${id}/`)).json();
    const patch = (body: Record<string, unknown>, id = ruleId) =>
      call(api, admin.token, 'PATCH', `/api/rule/${id}/`, body);
    const lastLog = async (id = ruleId) =>
      (await call(api, admin.token, 'GET', `/api/log/?rule_id_in=${id}&ordering=-timestamp`)).json().results[0];

    it('answers a new rule with no conditions, no action and its folder’s default budget limits', async () => {
      const rule = await get();
      expect(rule).toMatchObject({ conditions: null, action: null });
      expect(rule.folder.budget_limits).toEqual(DEFAULT_BUDGET_LIMITS);
    });

    it('saves and answers 3-deep conditions, metric against metric, with each kind of action', async () => {
      for (const action of [
        turnOffAd,
        { kind: 'turn_on', level: 'campaign' },
        raiseAdSet,
        { kind: 'lower_budget', level: 'campaign', change: { to_amount: 120 }, floor: 50, ceiling: null },
      ]) {
        const saved = await patch({ conditions: nested, action });
        expect(saved.statusCode, saved.body).toBe(200);
        expect(saved.json()).toMatchObject({ conditions: nested, action });
        expect(await get()).toMatchObject({ conditions: nested, action });
      }
    });

    it('leaves conditions and action alone when a PATCH does not name them, and clears them with null', async () => {
      await patch({ conditions: one(spendToday), action: turnOffAd });
      const renamed = await patch({ name: 'Spend guard' });
      expect(renamed.json()).toMatchObject({ name: 'Spend guard', conditions: one(spendToday), action: turnOffAd });
      const cleared = await patch({ conditions: null, action: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json()).toMatchObject({ conditions: null, action: null });
    });

    it('refuses each invalid shape with the message under its field, and keeps the rule as it was', async () => {
      await patch({ conditions: one(spendToday), action: turnOffAd });
      const cases: [string, Record<string, unknown>, Record<string, string[]>][] = [
        [
          'unknown metric',
          { conditions: one({ ...spendToday, metric: 'roas' }) },
          { 'conditions.conditions.0.metric': [CONDITION_MESSAGES.unknownMetric] },
        ],
        [
          'a 1-day window',
          { conditions: one({ ...spendToday, window: 'last_1_days' }) },
          { 'conditions.conditions.0.window': [CONDITION_MESSAGES.window] },
        ],
        [
          'a 91-day window',
          { conditions: one({ ...spendToday, window: 'last_91_days' }) },
          { 'conditions.conditions.0.window': [CONDITION_MESSAGES.window] },
        ],
        [
          'a show-up metric over 7 days',
          { conditions: one({ metric: 'attendees', window: 'last_7_days', op: '<', value: 3 }) },
          { 'conditions.conditions.0.window': [CONDITION_MESSAGES.lifetimeOnly] },
        ],
        [
          'both a value and another metric',
          { conditions: one({ ...cplOverCampaign, value: 10 }) },
          { 'conditions.conditions.0.value': [CONDITION_MESSAGES.valueOrMetric] },
        ],
        [
          'a bad condition deep in a group',
          {
            conditions: {
              match: 'all',
              conditions: [spendToday, { match: 'any', conditions: [{ ...spendToday, metric: 'roas' }] }],
            },
          },
          { 'conditions.conditions.1.conditions.0.metric': [CONDITION_MESSAGES.unknownMetric] },
        ],
        [
          'groups 4 deep',
          { conditions: one({ match: 'all', conditions: [one({ match: 'all', conditions: [spendToday] })] }) },
          { conditions: [CONDITION_MESSAGES.depth] },
        ],
        [
          '21 conditions',
          { conditions: { match: 'any', conditions: Array.from({ length: 21 }, () => spendToday) } },
          { conditions: [CONDITION_MESSAGES.tooMany] },
        ],
        [
          'a budget action on ads',
          { action: { ...raiseAdSet, level: 'ad' } },
          { 'action.level': [ACTION_MESSAGES.level('raise_budget')] },
        ],
        [
          'a raise by 0%',
          { action: { ...raiseAdSet, change: { percent: 0 } } },
          { 'action.change.percent': [ACTION_MESSAGES.percent(100)] },
        ],
        [
          'a raise by 101%',
          { action: { ...raiseAdSet, change: { percent: 101 } } },
          { 'action.change.percent': [ACTION_MESSAGES.percent(100)] },
        ],
        [
          'a floor at the ceiling',
          { action: { ...raiseAdSet, floor: 500, ceiling: 500 } },
          { 'action.floor': [ACTION_MESSAGES.floorOverCeiling] },
        ],
        [
          'a change on a turn-off',
          { action: { ...turnOffAd, change: { percent: 10 } } },
          { 'action.change': [ACTION_MESSAGES.changeNotBudget] },
        ],
        ['an action without conditions', { conditions: null }, { action: [ACTION_MESSAGES.conditionsNeeded] }],
        ['conditions without an action', { action: null }, { conditions: [ACTION_MESSAGES.actionNeeded] }],
      ];
      for (const [what, body, errors] of cases) {
        const refused = await patch(body);
        expect(refused.statusCode, what).toBe(400);
        expect(refused.json(), what).toEqual(errors);
      }
      expect(await get()).toMatchObject({ conditions: one(spendToday), action: turnOffAd });
    });

    it('activates a rule on conditions with an action and no task, but not on neither', async () => {
      await patch({ conditions: null, action: null });
      const refused = await patch({ is_active: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ rule_task: { non_field_errors: [RULE_MESSAGES.noActiveTask] } });
      const active = await patch({ is_active: true, conditions: one(spendToday), action: turnOffAd });
      expect(active.statusCode, active.body).toBe(200);
      expect(active.json()).toMatchObject({ is_active: true, action: turnOffAd });
      // Taking the conditions away from an active rule without tasks leaves it nothing to do.
      const emptied = await patch({ conditions: null, action: null });
      expect(emptied.json()).toEqual({ rule_task: { non_field_errors: [RULE_MESSAGES.noActiveTask] } });
      await patch({ is_active: false });
    });

    it('records conditions and action changes in the audit log as they read', async () => {
      await patch({ conditions: null, action: null });
      await patch({ conditions: nested, action: raiseAdSet });
      expect((await lastLog()).changes_text).toBe(
        'Conditions: none → Spend (today) ≥ 40 and (CTR (yesterday) < 0.5 or (CPL (last 7 days) > 1.5 × campaign CPL (last 7 days) and Show-up rate (lifetime) < 25)); ' +
          "Action: none → Raise the ad set's daily budget by 20% (at most $500.00)",
      );
      await patch({ action: { ...raiseAdSet, change: { percent: 30 } } });
      expect((await lastLog()).changes_text).toBe(
        "Action: Raise the ad set's daily budget by 20% (at most $500.00) → Raise the ad set's daily budget by 30% (at most $500.00)",
      );
    });

    it('creates a rule with conditions and an action, refusing one without the other', async () => {
      const created = await call(api, admin.token, 'POST', '/api/rule/', {
        folder: folderId,
        conditions: one(spendToday),
        action: turnOffAd,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ is_active: false, conditions: one(spendToday), action: turnOffAd });
      expect((await lastLog(created.json().id)).changes_text).toBe(
        'Conditions: Spend (today) ≥ 40; Action: Turn off the ad',
      );
      const plain = await call(api, admin.token, 'POST', '/api/rule/', { folder: folderId });
      expect(plain.json()).toMatchObject({ conditions: null, action: null });
      const half = await call(api, admin.token, 'POST', '/api/rule/', { folder: folderId, action: turnOffAd });
      expect(half.statusCode).toBe(400);
      expect(half.json()).toEqual({ action: [ACTION_MESSAGES.conditionsNeeded] });
      const bad = await call(api, admin.token, 'POST', '/api/rule/', {
        folder: folderId,
        conditions: one({ ...spendToday, window: 'last_91_days' }),
        action: turnOffAd,
      });
      expect(bad.json()).toEqual({ 'conditions.conditions.0.window': [CONDITION_MESSAGES.window] });
    });

    it('copies conditions and action to a duplicate, and keeps them through the trash', async () => {
      await patch({ conditions: nested, action: raiseAdSet });
      const copy = await call(api, admin.token, 'POST', `/api/rules/${ruleId}/duplicate_rule/`);
      expect(copy.statusCode, copy.body).toBe(201);
      expect(copy.json()).toMatchObject({ is_active: false, conditions: nested, action: raiseAdSet });
      const copyId = copy.json().id;
      await call(api, admin.token, 'POST', `/api/rules/${copyId}/move_to_trash/`);
      const restored = await call(api, admin.token, 'POST', `/api/rules/${copyId}/restore/`);
      expect(restored.json()).toMatchObject({ conditions: nested, action: raiseAdSet });
    });

    it('hands the engine the conditions, the action and the folder’s limits, a stored value that no longer reads as null', async () => {
      await patch({ conditions: one(spendToday), action: turnOffAd });
      const loaded = await loadEngineRule(api.dbh.db, ruleId);
      expect(loaded).toMatchObject({ conditions: one(spendToday), action: turnOffAd, unreadable: [] });
      expect(loaded!.folder.budgetLimits).toEqual(DEFAULT_BUDGET_LIMITS);

      await api.dbh.db
        .update(rules)
        .set({
          conditions: one({ ...spendToday, window: 'last_120_days' }) as never,
          action: { kind: 'explode' } as never,
        })
        .where(eq(rules.id, ruleId));
      const broken = await loadEngineRule(api.dbh.db, ruleId);
      expect(broken).toMatchObject({ conditions: null, action: null });
      expect(broken!.unreadable).toEqual([
        `conditions.conditions.0.window: ${CONDITION_MESSAGES.window}`,
        `action.kind: ${ACTION_MESSAGES.kind}`,
      ]);
      // The API answers such a rule too (as none), so it can be edited again.
      const answered = await call(api, admin.token, 'GET', `/api/rule/${ruleId}/`);
      expect(answered.statusCode, answered.body).toBe(200);
      expect(answered.json()).toMatchObject({ conditions: null, action: null });
      await api.dbh.db.update(rules).set({ conditions: null, action: null }).where(eq(rules.id, ruleId));
    });
  });

  describe(`a folder's budget limits on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let account: Account;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      account = await insertAccount(api, { accountName: 'Limits Account' });
    });
    afterAll(() => api.close());

    const patchFolder = (id: number, body: Record<string, unknown>, token = admin.token) =>
      call(api, token, 'PATCH', `/api/general_page/${id}/`, body);
    const lastLog = async (id: number) =>
      (await call(api, admin.token, 'GET', `/api/log/?folder_id_in=${id}&ordering=-timestamp`)).json().results[0];

    it('answers the defaults until set, in the folder and in its rules', async () => {
      const folder = await createFolder(api, admin.token, account);
      const [row] = await api.dbh.db
        .select({ limits: folders.budgetLimits })
        .from(folders)
        .where(eq(folders.id, folder.id));
      expect(row!.limits).toBeNull();
      const answered = (await call(api, admin.token, 'GET', `/api/general_page/${folder.id}/`)).json();
      expect(answered.budget_limits).toEqual(DEFAULT_BUDGET_LIMITS);
      const list = (await call(api, admin.token, 'GET', '/api/general_page/?limit=100')).json();
      expect(list.results.find((f: { id: number }) => f.id === folder.id).budget_limits).toEqual(DEFAULT_BUDGET_LIMITS);
    });

    it('merges a change over the stored limits, answers them whole, and logs what moved', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Limits Folder' });
      const changed = await patchFolder(folder.id, { budget_limits: { growth_24h_pct: 40 } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().budget_limits).toEqual({ ...DEFAULT_BUDGET_LIMITS, growth_24h_pct: 40 });
      expect((await lastLog(folder.id)).changes_text).toBe('Budget limits: 24 h growth 50% → 40%');

      const more = await patchFolder(folder.id, { budget_limits: { settle_hours: 48, daily_increase_limit: null } });
      expect(more.json().budget_limits).toEqual({
        ...DEFAULT_BUDGET_LIMITS,
        growth_24h_pct: 40,
        settle_hours: 48,
        daily_increase_limit: null,
      });
      expect((await lastLog(folder.id)).changes_text).toBe(
        'Budget limits: settle time 72 h → 48 h, daily increase limit $1,000.00 → none',
      );
      const rule = (await call(api, admin.token, 'GET', `/api/rule/${folder.rules[0]!.id}/`)).json();
      expect(rule.folder.budget_limits).toMatchObject({ growth_24h_pct: 40, settle_hours: 48 });

      // Other changes keep the limits.
      expect((await patchFolder(folder.id, { plan: 'team' })).json().budget_limits.growth_24h_pct).toBe(40);
    });

    it('creates a folder with limits of its own', async () => {
      const created = await call(api, admin.token, 'POST', '/api/general_page/', {
        client_type: 'EDM',
        plan: 'solo',
        meta_ad_account_id: account.adAccountId,
        name: 'Careful Folder',
        extension: { external_credentials: { demio: null } },
        budget_limits: { growth_7d_pct: 80 },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().budget_limits).toEqual({ ...DEFAULT_BUDGET_LIMITS, growth_7d_pct: 80 });
      const entry = (
        await call(api, admin.token, 'GET', `/api/log/?folder_id_in=${created.json().id}&ordering=timestamp`)
      ).json().results[0];
      expect(entry.changes_text).toContain('Budget limits: 7 d growth 100% → 80%');
    });

    it('refuses limits out of range or inconsistent, each under its field, and keeps the stored ones', async () => {
      const folder = await createFolder(api, admin.token, account);
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ growth_24h_pct: 0 }, { 'budget_limits.growth_24h_pct': ['Must be at least 1'] }],
        [{ settle_hours: 2.5 }, { 'budget_limits.settle_hours': ['Must be a whole number'] }],
        [{ significant_pct: 101 }, { 'budget_limits.significant_pct': ['Must be at most 100'] }],
        [{ surprise: 1 }, { budget_limits: ['Unrecognized key: "surprise"'] }],
        [
          { growth_24h_pct: 60, growth_7d_pct: 50 },
          { 'budget_limits.growth_7d_pct': ['Must be at least the 24-hour growth'] },
        ],
        // Merged over the stored 7-day growth (100%).
        [{ growth_24h_pct: 150 }, { 'budget_limits.growth_7d_pct': ['Must be at least the 24-hour growth'] }],
      ];
      for (const [limits, errors] of cases) {
        const refused = await patchFolder(folder.id, { budget_limits: limits });
        expect(refused.statusCode, JSON.stringify(limits)).toBe(400);
        expect(refused.json(), JSON.stringify(limits)).toEqual(errors);
      }
      const answered = (await call(api, admin.token, 'GET', `/api/general_page/${folder.id}/`)).json();
      expect(answered.budget_limits).toEqual(DEFAULT_BUDGET_LIMITS);
    });

    it('lets only who may change folders change the limits', async () => {
      const folder = await createFolder(api, admin.token, account);
      const reader = await api.userWith(['read_rules']);
      const refused = await patchFolder(folder.id, { budget_limits: { growth_24h_pct: 10 } }, reader.token);
      expect(refused.statusCode).toBe(403);
      const answered = (await call(api, reader.token, 'GET', `/api/general_page/${folder.id}/`)).json();
      expect(answered.budget_limits).toEqual(DEFAULT_BUDGET_LIMITS);
    });
  });
});

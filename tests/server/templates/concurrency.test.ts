/**
 * Template edits and folders' own saves at the same moment, on PostgreSQL (several connections):
 * whatever order they commit in, every follower ends with the template's last values in the fields
 * it inherits and its own in the fields it overrides — no save of what was read before an edit
 * undoes the edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { call, createFolder, insertAccount, RULES_ADMIN } from '../rules/fixtures';

const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Sydney'];

describe('template edits racing folders’ saves on postgres', () => {
  let api: TestApi;
  let admin: TestUser;
  let templateId: number;
  const followers: number[] = [];

  beforeAll(async () => {
    api = await createTestApi('postgres');
    admin = await api.userWith(RULES_ADMIN);
    const account = await insertAccount(api);
    templateId = (await call(api, admin.token, 'POST', '/api/templates/', { name: 'Race' })).json().id;
    for (const name of ['One', 'Two', 'Three']) {
      const folder = await createFolder(api, admin.token, account, { name });
      const rule = await call(api, admin.token, 'POST', `/api/templates/${templateId}/folders/`, { folder: folder.id });
      expect(rule.statusCode, rule.body).toBe(201);
      followers.push(rule.json().id);
    }
  });
  afterAll(() => api.close());

  it('ends with the template’s last time zone and threshold in every follower, and each folder’s own name', async () => {
    const edits = Array.from(
      { length: 12 },
      (_, i) => () =>
        call(api, admin.token, 'PATCH', `/api/templates/${templateId}/`, {
          rule_schedule: { timezone: ZONES[i % ZONES.length] },
          rule_task: [{ name: 'trigger_cpl', values: { cpl: String(40 + i) }, is_active: false }],
        }),
    );
    const saves = followers.flatMap((ruleId) =>
      Array.from(
        { length: 4 },
        (_, i) => () => call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, { name: `Own name ${ruleId}-${i}` }),
      ),
    );
    const all = [...edits, ...saves].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(all.map((send) => send()));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

    const template = (await call(api, admin.token, 'GET', `/api/templates/${templateId}/`)).json();
    const cpl = template.values.rule_task.find((t: { name: string }) => t.name === 'trigger_cpl').values.cpl;
    for (const ruleId of followers) {
      const rule = (await call(api, admin.token, 'GET', `/api/rule/${ruleId}/`)).json();
      expect(rule.rule_schedule.timezone, `rule ${ruleId}`).toBe(template.values.rule_schedule.timezone);
      expect(rule.rule_task.find((t: { name: string }) => t.name === 'trigger_cpl').values.cpl).toBe(cpl);
      expect(rule.name).toMatch(new RegExp(`^Own name ${ruleId}-`));
      expect(rule.template.overrides).toEqual(['name']);
    }
  });
});

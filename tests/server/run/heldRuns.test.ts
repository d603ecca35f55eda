/**
 * Runs that explain themselves and the engine's guard rails, through the API: a run over the
 * blast-radius limit acts on nothing and is held (alert mailed once, planned actions shown);
 * Approve carries out exactly the still-valid planned turn-offs once, however many press it at
 * the same moment; Dismiss drops them; notify-only rules change nothing; every run lists the
 * objects it looked at with each task's verdict; alert digests go out once even after a crash.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ruleActivity, ruleRuns, rules } from '../../../server/db/schema/index';
import { runAlert } from '../../../server/alerts/digests';
import { createLedgerStore } from '../../../server/run/ledger';
import { createRuleEngineService, type RuleEngineService } from '../../../server/run/requestedRuns';
import type { MailMessage } from '../../../server/mail/mailer';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { CapturingMailer, FakePlatform, quietLog, seedAccount, seedRule } from './support';

const ALERTS = { recipients: ['ops@example.com'], publicUrl: 'http://console.test', sender: 'rules@example.com' };

const CAMPAIGN = 'EDM EP-W 2026-03-04 6PM';

eachDatabase((engine) => {
  describe(`held runs, run records and notify-only on ${engine}`, () => {
    let api: TestApi;
    let platform: FakePlatform;
    let mailer: CapturingMailer;
    let editor: TestUser;
    let reader: TestUser;
    let account: string;

    const service = (): RuleEngineService =>
      createRuleEngineService({ db: api.dbh.db, client: platform, log: quietLog, alerts: { mailer, ...ALERTS } });

    beforeAll(async () => {
      api = await createTestApi(engine);
      editor = await api.userWith(['create_update_rules', 'read_rules', 'view_logs'], {
        firstName: 'Ada',
        lastName: 'Approver',
      });
      reader = await api.userWith(['read_rules', 'view_logs']);
    });
    afterAll(() => api.close());

    /** An account of four delivering ads; three are over a $100 no-lead spend, one is not. */
    beforeEach(async () => {
      platform = new FakePlatform();
      mailer = new CapturingMailer();
      api.app.ruleEngine = service();
      account = (await seedAccount(api.dbh.db)).adAccountId;
      platform.addCampaign(account, 'c1', CAMPAIGN);
      for (const id of ['over1', 'over2', 'over3']) platform.addAd(account, 'c1', id, { spend: '300' });
      platform.addAd(account, 'c1', 'under', { spend: '20' });
    });

    const seed = (extra = {}) =>
      seedRule(api.dbh.db, account, { tasks: { spend_cpl_no_leads: { spend: '100' } }, ...extra });
    const post = (user: TestUser, url: string, payload?: object) =>
      api.request(user.token, { method: 'POST', url, ...(payload ? { payload } : {}) });
    const get = (user: TestUser, url: string) => api.request(user.token, { method: 'GET', url });
    const runNow = async (ruleId: number) => {
      const response = await post(editor, `/api/rules/${ruleId}/run_now/`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    it('holds a run that would turn off more than half of the delivering ads: nothing changes, one alert, a pending decision', async () => {
      const { rule } = await seed();
      const result = await runNow(rule.id);
      expect(result.status).toBe('held');
      expect(platform.writes).toEqual([]);

      const runs = (await get(reader, `/api/rule/${rule.id}/runs/`)).json();
      expect(runs.count).toBe(1);
      const [summary] = runs.results;
      expect(summary).toMatchObject({ trigger: 'run_now', outcome: 'held', decision: 'pending' });
      const run = (await get(reader, `/api/rule_runs/${summary.id}/`)).json();
      expect(run.planned.map((a: { ad_id: string }) => a.ad_id).sort()).toEqual(['over1', 'over2', 'over3']);
      expect(run.limits).toEqual({ affected: 3, delivering: 4, actions: 3, max_share: 0.5, max_actions: 25 });
      const verdicts = Object.fromEntries(run.objects.map((o: { id: string; verdicts: object }) => [o.id, o.verdicts]));
      expect(verdicts).toEqual({
        over1: { spend_cpl_no_leads: 'held' },
        over2: { spend_cpl_no_leads: 'held' },
        over3: { spend_cpl_no_leads: 'held' },
        under: { spend_cpl_no_leads: 'under_threshold' },
      });
      expect(run.objects.find((o: { id: string }) => o.id === 'under').metrics).toMatchObject({
        spend: 20,
        leads: 0,
        impressions: 1000,
      });
      // Each object names its campaign; one the rule would act on says what crossed the threshold.
      const byId = (id: string) => run.objects.find((o: { id: string }) => o.id === id);
      expect(byId('over1')).toMatchObject({ campaign_name: CAMPAIGN, crossed: 'Spend $300.00 > $100.00 · Leads 0' });
      expect(byId('under')).toMatchObject({ campaign_name: CAMPAIGN, crossed: null });

      expect(mailer.sent).toHaveLength(1);
      expect(mailer.sent[0]!.subject).toContain('Held for approval');
      expect(mailer.sent[0]!.text).toContain('would turn off 3 of 4 delivering ads (75%, limit 50%)');

      const log = (await get(reader, `/api/rule_log/?rule_id_in=${rule.id}`)).json();
      expect(log.results).toEqual([
        expect.objectContaining({ action: 'run_held', run_id: summary.id, decision: 'pending' }),
      ]);
    });

    it('Preview says beforehand whether Run now would be held, with the numbers the limit weighs, and the run then is', async () => {
      const { rule } = await seed();
      const preview = await get(editor, `/api/rules/${rule.id}/preview/`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({
        count: 3,
        delivering: 4,
        notify_only: false,
        hold: {
          held: true,
          summary: 'would turn off 3 of 4 delivering ads (75%, limit 50%)',
          affected: 3,
          delivering: 4,
          actions: 3,
          max_share: 0.5,
          max_actions: 25,
        },
      });
      expect(platform.writes).toEqual([]);
      expect((await runNow(rule.id)).status).toBe('held');

      // Under the limit (one ad over its spend of four), Preview says the run acts.
      platform.insights.get('over2')!.spend = '20';
      platform.insights.get('over3')!.spend = '20';
      const { rule: second } = await seed();
      expect((await get(editor, `/api/rules/${second.id}/preview/`)).json()).toMatchObject({
        count: 1,
        hold: { held: false, summary: '', affected: 1, delivering: 4 },
      });
    });

    it('Preview of a notify-only rule says so, and that nothing would be held', async () => {
      const { rule } = await seed();
      await api.dbh.db.update(rules).set({ notifyOnly: true }).where(eq(rules.id, rule.id));
      expect((await get(editor, `/api/rules/${rule.id}/preview/`)).json()).toMatchObject({
        count: 3,
        notify_only: true,
        hold: { held: false },
      });
    });

    it('approves once, whoever presses at the same moment, and only what is still delivering', async () => {
      const { rule } = await seed();
      const held = await runNow(rule.id);
      const heldId = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].id;
      expect(held.status).toBe('held');
      // Someone paused one of the planned ads by hand in the meantime.
      platform.ads.get('over2')!.status = 'PAUSED';

      const refused = await post(reader, `/api/rule_runs/${heldId}/approve/`);
      expect(refused.statusCode).toBe(403);

      // Two people in the API and a second process's service, all at once.
      const other = service();
      const [a, b, c] = await Promise.all([
        post(editor, `/api/rule_runs/${heldId}/approve/`),
        post(editor, `/api/rule_runs/${heldId}/approve/`),
        other.approve(heldId, { id: editor.id, first_name: 'Ada', last_name: 'Approver', email: editor.email }).then(
          () => 200,
          (error: { statusCode?: number }) => error.statusCode,
        ),
      ]);
      const statuses = [a.statusCode, b.statusCode, c].sort();
      expect(statuses).toEqual([200, 409, 409]);
      expect(platform.writes.map((w) => w.id).sort()).toEqual(['over1', 'over3']);

      const runs = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results;
      expect(runs.map((r: { trigger: string; outcome: string }) => [r.trigger, r.outcome])).toEqual([
        ['approval', 'done'],
        ['run_now', 'held'],
      ]);
      expect(runs[1]).toMatchObject({ decision: 'approved', decided_by: 'Ada Approver' });
      const approval = (await get(reader, `/api/rule_runs/${runs[0].id}/`)).json();
      expect(
        Object.fromEntries(approval.objects.map((o: { id: string; verdicts: object }) => [o.id, o.verdicts])),
      ).toEqual({
        over1: { spend_cpl_no_leads: 'acted' },
        over2: { spend_cpl_no_leads: 'already_off' },
        over3: { spend_cpl_no_leads: 'acted' },
      });
      const turnOffs = await api.dbh.db.select().from(ruleActivity).where(eq(ruleActivity.action, 'turn_off_ad'));
      expect(turnOffs.filter((e) => e.ruleId === rule.id).map((e) => [e.adId, e.runId])).toEqual(
        expect.arrayContaining([
          ['over1', runs[0].id],
          ['over3', runs[0].id],
        ]),
      );
      const again = await post(editor, `/api/rule_runs/${heldId}/approve/`);
      expect(again.statusCode).toBe(409);
      expect(platform.writes).toHaveLength(2);
    });

    it('dismisses a held run: nothing changes, and it can no longer be approved', async () => {
      const { rule } = await seed();
      await runNow(rule.id);
      const heldId = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].id;
      const dismissed = await post(editor, `/api/rule_runs/${heldId}/dismiss/`);
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect(dismissed.json()).toMatchObject({ outcome: 'held', decision: 'dismissed' });
      const late = await post(editor, `/api/rule_runs/${heldId}/approve/`);
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({ detail: 'This held run was already dismissed.' });
      expect(platform.writes).toEqual([]);
    });

    it('switching the rule off or to notify-only dismisses its held runs, and Approve is refused for them', async () => {
      for (const change of [{ is_active: false }, { notify_only: true }]) {
        const { rule } = await seed();
        await runNow(rule.id);
        const heldId = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].id;
        const patched = await api.request(editor.token, {
          method: 'PATCH',
          url: `/api/rule/${rule.id}/`,
          payload: change,
        });
        expect(patched.statusCode, patched.body).toBe(200);
        const run = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0];
        expect(run).toMatchObject({ id: heldId, decision: 'dismissed', decided_by: 'Ada Approver' });
        const late = await post(editor, `/api/rule_runs/${heldId}/approve/`);
        expect(late.statusCode).toBe(409);
      }
      // A held run whose rule was switched off without passing the rule screen (an older run, another
      // process) is refused all the same.
      const { rule } = await seed();
      await runNow(rule.id);
      const heldId = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].id;
      await api.dbh.db.update(rules).set({ notifyOnly: true }).where(eq(rules.id, rule.id));
      const refused = await post(editor, `/api/rule_runs/${heldId}/approve/`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ detail: 'The rule is set to notify only: its held run cannot be approved.' });
      expect((await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].decision).toBe('pending');
      expect(platform.writes).toEqual([]);
    });

    it('a Run now of a rule that is switched off can be held and approved: the person ran it on purpose', async () => {
      const { rule } = await seed({ isActive: false });
      expect((await runNow(rule.id)).status).toBe('held');
      const heldId = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].id;
      const approved = await post(editor, `/api/rule_runs/${heldId}/approve/`);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(platform.writes.map((w) => w.id).sort()).toEqual(['over1', 'over2', 'over3']);
    });

    it('defangs every name in its mails: rule, folder, account and campaign names never become links or addresses', async () => {
      const hostile = (await seedAccount(api.dbh.db, { accountName: 'Pay at evil.example' })).adAccountId;
      platform.addCampaign(hostile, 'c9', 'EDM http://evil.example/c EP-W 2026-03-04 6PM');
      for (const id of ['h1', 'h2', 'h3']) platform.addAd(hostile, 'c9', id, { spend: '300' });
      const { rule } = await seedRule(api.dbh.db, hostile, {
        tasks: { spend_cpl_no_leads: { spend: '100' } },
        folderName: 'Visit https://evil.example/now',
        ruleName: 'Mail boss@evil.example',
        alertHours: [7],
      });
      await runNow(rule.id);
      const heldId = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results[0].id;
      expect((await post(editor, `/api/rule_runs/${heldId}/approve/`)).statusCode).toBe(200);
      const alert = await runAlert(
        { db: api.dbh.db, log: quietLog, mailer, ...ALERTS },
        rule.id,
        new Date(Date.now() + 1000),
      );
      expect(alert.status).toBe('sent');

      expect(mailer.sent.map((m) => m.subject)).toEqual([
        'Held for approval: Mail boss[at]evil[.]example (Visit https[:]//evil[.]example/now)',
        'Mail boss[at]evil[.]example: 4 rule actions (Visit https[:]//evil[.]example/now)',
      ]);
      for (const mail of mailer.sent) {
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part).not.toMatch(/evil\.example|boss@|https?:\/\/evil/);
        }
        expect(mail.text).toContain('Pay at evil[.]example');
      }
      expect(mailer.sent[1]!.text).toContain('Campaign: EDM http[:]//evil[.]example/c EP-W 2026-03-04 6PM');
      // Numbers keep their decimal point.
      expect(mailer.sent[0]!.text).toMatch(/\$300\.00/);
    });

    it('holds a run over the number limit even when the share is small', async () => {
      for (let i = 0; i < 40; i += 1) platform.addAd(account, 'c1', `quiet${i}`, { spend: '1' });
      for (let i = 0; i < 30; i += 1) platform.addAd(account, 'c1', `loud${i}`, { spend: '500' });
      const { rule } = await seed();
      const result = await runNow(rule.id);
      expect(result.status).toBe('held');
      expect(result.detail).toContain('33 turn-offs (limit 25)');
      expect(platform.writes).toEqual([]);
    });

    it('acts within the limits, and the run lists each object with its verdict', async () => {
      for (let i = 0; i < 6; i += 1) platform.addAd(account, 'c1', `quiet${i}`, { spend: '1' });
      const { rule } = await seed();
      const result = await runNow(rule.id);
      expect(result.status).toBe('done');
      expect(platform.writes.map((w) => w.id).sort()).toEqual(['over1', 'over2', 'over3']);
      const [summary] = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results;
      expect(summary).toMatchObject({
        outcome: 'done',
        decision: null,
        counts: { objects: 10, acted: 3, under_threshold: 7, failed: 0 },
      });
      const log = (await get(reader, `/api/rule_log/?rule_id_in=${rule.id}`)).json();
      expect(log.results.every((e: { run_id: number }) => e.run_id === summary.id)).toBe(true);
    });

    it('a notify-only rule records and reports what it would do, and changes nothing', async () => {
      for (let i = 0; i < 6; i += 1) platform.addAd(account, 'c1', `quiet${i}`, { spend: '1' });
      const { rule } = await seed({ alertHours: [7] });
      const switched = await api.request(editor.token, {
        method: 'PATCH',
        url: `/api/rule/${rule.id}/`,
        payload: { notify_only: true },
      });
      expect(switched.statusCode, switched.body).toBe(200);
      expect(switched.json().notify_only).toBe(true);

      const result = await runNow(rule.id);
      expect(result.status).toBe('notify_only');
      expect(platform.writes).toEqual([]);
      const [summary] = (await get(reader, `/api/rule/${rule.id}/runs/`)).json().results;
      expect(summary).toMatchObject({ outcome: 'notify_only', counts: { would_act: 3 } });
      const log = (await get(reader, `/api/rule_log/?rule_id_in=${rule.id}`)).json();
      expect(log.results.map((e: { action: string }) => e.action)).toEqual([
        'would_turn_off_ad',
        'would_turn_off_ad',
        'would_turn_off_ad',
      ]);

      const alert = await runAlert(
        { db: api.dbh.db, log: quietLog, mailer, ...ALERTS },
        rule.id,
        new Date(Date.now() + 1000),
      );
      expect(alert.status).toBe('sent');
      expect(mailer.sent.at(-1)!.text).toContain('would turn off ad over1');
      const tree = (await get(editor, '/api/general_page/?limit=100')).json();
      const row = tree.results
        .flatMap((f: { rules: { id: number }[] }) => f.rules)
        .find((r: { id: number }) => r.id === rule.id);
      expect(row.notify_only).toBe(true);
    });

    it('sends a digest once: a crash after the mail left sends the same message again, never a second digest', async () => {
      for (let i = 0; i < 6; i += 1) platform.addAd(account, 'c1', `quiet${i}`, { spend: '1' });
      const { rule } = await seed({ alertHours: [7] });
      await runNow(rule.id);
      const slot = new Date(Date.now() + 1000);
      const sent: MailMessage[] = [];
      let crash = true;
      const crashingMailer = {
        mode: 'outbox' as const,
        async send(message: MailMessage) {
          sent.push(message);
          if (crash) {
            crash = false;
            throw new Error('worker lost before recording');
          }
          return { messageId: message.messageId! };
        },
        async close() {},
      };
      const ctx = { db: api.dbh.db, log: quietLog, mailer: crashingMailer, ...ALERTS };
      await expect(runAlert(ctx, rule.id, slot)).rejects.toThrow('worker lost');
      // The job is retried (the ledger lets a failed alert slot be taken again).
      await api.dbh.db.update(ruleRuns).set({ status: 'failed' }).where(eq(ruleRuns.ruleId, rule.id));
      expect((await runAlert(ctx, rule.id, slot)).status).toBe('sent');
      expect((await runAlert(ctx, rule.id, slot)).status).toBe('already_done');
      expect(sent).toHaveLength(2);
      expect(sent[1]).toEqual(sent[0]);
      expect(sent[0]!.messageId).toMatch(/^<alert_sent\.\d+\.\d+\.[0-9a-f]+@example\.com>$/);
      const digests = await api.dbh.db.select().from(ruleActivity).where(eq(ruleActivity.action, 'alert_sent'));
      expect(digests.filter((d) => d.ruleId === rule.id)).toHaveLength(1);
      // The next alert hour has nothing new to report.
      expect((await runAlert(ctx, rule.id, new Date(slot.getTime() + 3600_000))).status).toBe('nothing_to_report');
    });

    it('prunes run records older than the history window', async () => {
      const { rule } = await seed();
      await api.dbh.db.insert(ruleRuns).values([
        { ruleId: rule.id, slot: new Date('2020-01-01T00:00:00Z'), kind: 'run', status: 'done', outcome: 'done' },
        { ruleId: rule.id, slot: new Date(), kind: 'run', status: 'done', outcome: 'done' },
      ]);
      await createLedgerStore(api.dbh.db).pruneRuns(new Date(Date.now() - 30 * 24 * 3600_000));
      const left = await api.dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      expect(left).toHaveLength(1);
    });
  });
});

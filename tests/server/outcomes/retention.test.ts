/**
 * Lead outcome data is kept 400 days, on both databases: a row 401 days old goes, one 399 days old
 * stays — webinar and CRM outcomes, the leads' e-mail hashes, the campaigns' webinar dates — and
 * the rule engine's scan, which prunes the other kept data, prunes these too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { campaignEvents, folders, leadOutcomes, leadPeople, metaAdAccounts } from '../../../server/db/schema/index';
import { startRuleEngine, type RuleEngine } from '../../../server/run/startInWorker';
import { outcomeRetentionStart, pruneOutcomes } from '../../../server/outcomes/retention';
import { emailHash } from '../../../server/webinar/emailHash';
import { eachDatabase, freshDatabase } from '../../support/db';
import { CapturingMailer, FakePlatform, quietLog } from '../run/support';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-03-02T15:00:00Z');
const daysBefore = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

eachDatabase((engine) => {
  describe(`lead outcome retention on ${engine}`, () => {
    let dbh: DbHandle;
    let folderId: number;
    let ruleEngine: RuleEngine | undefined;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      await dbh.db
        .insert(metaAdAccounts)
        .values({ adAccountId: 'act_300', accountName: 'Harbor', timezoneName: 'UTC' });
      const [folder] = await dbh.db
        .insert(folders)
        .values({ name: 'Harbor', clientType: 'EDM', plan: 'solo', adAccountId: 'act_300' })
        .returning({ id: folders.id });
      folderId = folder!.id;
    });
    afterAll(async () => {
      await ruleEngine?.stop();
      await dbh.close();
    });

    /** One row of each kind, `days` old, named by its age. */
    async function rowsAged(days: number) {
      const at = daysBefore(days);
      const tag = String(days);
      const outcome = { folderId, leadKey: emailHash(`lead${days}@example.com`)!, occurredAt: at };
      await dbh.db.insert(leadOutcomes).values([
        { ...outcome, kind: 'registered', source: 'demio', sourceRef: tag },
        { ...outcome, kind: 'attended', source: 'demio', sourceRef: tag },
        { ...outcome, kind: 'won', source: 'crm', sourceRef: tag },
      ]);
      await dbh.db.insert(leadPeople).values({
        leadId: `L${tag}`,
        adAccountId: 'act_300',
        adId: '9001',
        campaignId: '501',
        emailSha256: outcome.leadKey,
        createdTime: at,
      });
      await dbh.db.insert(campaignEvents).values({
        folderId,
        adAccountId: 'act_300',
        campaignId: '501',
        eventId: 1,
        dateId: days,
        startsAt: at,
        source: 'name',
        participantsReadAt: at,
      });
    }

    async function kept() {
      const [outcomes, people, dates] = await Promise.all([
        dbh.db.select({ ref: leadOutcomes.sourceRef, source: leadOutcomes.source }).from(leadOutcomes),
        dbh.db.select({ id: leadPeople.leadId }).from(leadPeople),
        dbh.db.select({ dateId: campaignEvents.dateId }).from(campaignEvents),
      ]);
      return {
        outcomes: outcomes.map((o) => `${o.source} ${o.ref}`).sort(),
        people: people.map((p) => p.id).sort(),
        dates: dates.map((d) => d.dateId).sort(),
      };
    }

    it('deletes what is 401 days old and keeps what is 399 days old', async () => {
      await rowsAged(401);
      await rowsAged(399);
      await pruneOutcomes(dbh.db, outcomeRetentionStart(NOW));
      expect(await kept()).toEqual({
        outcomes: ['crm 399', 'demio 399', 'demio 399'],
        people: ['L399'],
        dates: [399],
      });
    });

    it("runs with the rule engine's scan", async () => {
      await rowsAged(402);
      ruleEngine = await startRuleEngine({
        dbh,
        client: new FakePlatform(),
        alerts: { mailer: new CapturingMailer(), recipients: [], publicUrl: 'http://console.test' },
        log: quietLog,
        now: () => NOW,
        autoScan: false,
      });
      await ruleEngine.scan(NOW);
      expect(await kept()).toEqual({
        outcomes: ['crm 399', 'demio 399', 'demio 399'],
        people: ['L399'],
        dates: [399],
      });
    });
  });
});

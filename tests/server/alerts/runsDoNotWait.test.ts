/**
 * A destination that never answers delays no run: a held run's alert is queued, not posted, so the
 * run ends at once, and while the delivery worker still waits on that destination another rule's
 * run turns its ad off and finishes.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredDestinations } from '../../../server/alerts/destinations';
import type { DbHandle } from '../../../server/db/client';
import { webhookDeliveries } from '../../../server/db/schema/index';
import { DEFAULT_LIMITS } from '../../../server/judgement/blastRadius';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { eachDatabase, freshDatabase } from '../../support/db';
import { CapturingMailer, engineContext, FakePlatform, seedAccount, seedRule } from '../run/support';
import { alertSettings, deliveriesTo, WebhookReceiver } from './receiver';

const SLOT = new Date('2024-01-15T12:00:00Z');

eachDatabase((engine) => {
  describe(`a never-answering destination on ${engine}`, () => {
    let dbh: DbHandle;
    let silent: WebhookReceiver;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      silent = new WebhookReceiver();
      await silent.start();
      silent.hang = true;
    });
    afterAll(async () => {
      await silent.close();
      await dbh.close();
    });

    it('does not delay another rule’s turn-off', async () => {
      const platform = new FakePlatform();
      const held = (await seedAccount(dbh.db)).adAccountId;
      platform.addCampaign(held, 'c1', 'EDM EP-W 2026-03-04 6PM');
      for (const id of ['over1', 'over2', 'over3']) platform.addAd(held, 'c1', id, { spend: '300' });
      platform.addAd(held, 'c1', 'under', { spend: '20' });
      const heldRule = await seedRule(dbh.db, held, {
        everyDayAt: [12],
        tasks: { spend_cpl_no_leads: { spend: '100' } },
      });
      const acting = (await seedAccount(dbh.db)).adAccountId;
      platform.addCampaign(acting, 'c2', 'EDM EP-W 2024-02-01 6PM');
      platform.addAd(acting, 'c2', 'expensive', { spend: '186.30', leads: 3 });
      for (const id of ['cheap1', 'cheap2']) platform.addAd(acting, 'c2', id, { spend: '90', leads: 3 });
      const actingRule = await seedRule(dbh.db, acting, { everyDayAt: [12] });

      const deliveries = await deliveriesTo(dbh, configuredDestinations(silent.url('/silent')), silent.policy(), {
        timeoutMs: 10 * 60_000,
      });
      try {
        const context = engineContext(dbh.db, platform, () => SLOT, {
          limits: DEFAULT_LIMITS,
          alerts: alertSettings(new CapturingMailer(), deliveries),
        });
        const posted = silent.nextRequest();
        const heldResult = await runSlot(context, { ruleId: heldRule.rule.id, slot: SLOT, kind: 'run' });
        expect(heldResult.status).toBe('held');
        await posted; // the delivery worker now waits on the silent destination

        const actingResult = await runSlot(context, { ruleId: actingRule.rule.id, slot: SLOT, kind: 'run' });
        expect(actingResult.status).toBe('done');
        expect(actingResult.turnedOff.map((entry) => entry.adId)).toEqual(['expensive']);
        expect(platform.writes).toEqual([{ id: 'expensive', status: 'PAUSED' }]);

        // All the while the silent destination held the held run's alert, unanswered.
        expect(silent.held).toHaveLength(1);
        const [delivery] = await dbh.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.sourceKey, String(heldResult.entries![0]!.id)));
        expect(delivery).toMatchObject({ state: 'pending', attempts: 0 });
      } finally {
        silent.release();
        await deliveries.stop();
      }
    });
  });
});

/**
 * "Try on history" with a rule on what the leads became, on each database: a webinar happens
 * mid-span; until its show-ups are recorded the ads wait for the event, then the ad whose cost per
 * attendee is over is paused at the first scheduled hour after, its reason naming both costs as a
 * live run's does. Show-ups recorded late are not seen before they were recorded, though they are
 * dated at the event's start; a rule without an outcome task reads no outcomes and pauses as before.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../../server/backtest/service';
import { OUTCOME_CHECKS } from '../../../server/judgement/outcomeTasks';
import * as outcomeRows from '../../../server/outcomes/outcomeRows';
import { createOutcomeStore } from '../../../server/outcomes/store';
import { eachDatabase, freshDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';
import { everyHour, readAt, ruleBody, seedWebinar } from './support';

const NO_LIMIT = { maxShare: 1, maxActions: 1000 };
const NOW = new Date('2024-03-06T12:30:00Z');
const START = Date.parse('2024-03-04T00:00:00Z');
const HOUR_MS = 3_600_000;
const EVENT = new Date('2024-03-05T08:00:00Z');
const at = (iso: string) => new Date(iso);

eachDatabase((engine) => {
  describe(`backtest of outcome tasks on ${engine}`, () => {
    let dbh: DbHandle;
    let folderId: number;
    let adAccountId: string;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      ({ adAccountId } = await seedAccount(dbh.db));
      ({
        folder: { id: folderId },
      } = await seedRule(dbh.db, adAccountId));
      // Every ad spends $10 an hour from 2024-03-04 00:00 and has its 20 form leads from the start.
      for (let h = 0; h <= 60; h += 1)
        await readAt(
          dbh.db,
          adAccountId,
          new Date(START + h * HOUR_MS + 20_000).toISOString(),
          ['pricey', 'good', 'late'].map((id) => ({
            id,
            campaignId: id === 'late' ? 'c2' : 'c1',
            spend: 10 * h,
            leads: 20,
          })),
        );
      // The webinar of 08:00 on 2024-03-05 ($320 spent by then): 2, 16 and 1 of the ads' 20 registrants
      // came. Its participants were read at 11:30 for campaign c1, only at 02:10 the next night for c2.
      const webinar = { adAccountId, folderId, startsAt: EVENT, registrants: 20 };
      const onTime = at('2024-03-05T11:30:00Z');
      await seedWebinar(dbh.db, {
        ...webinar,
        campaignId: 'c1',
        dateId: 101,
        adId: 'pricey',
        attendees: 2,
        recordedAt: onTime,
      });
      await seedWebinar(dbh.db, {
        ...webinar,
        campaignId: 'c1',
        dateId: 101,
        adId: 'good',
        attendees: 16,
        recordedAt: onTime,
      });
      await seedWebinar(dbh.db, {
        ...webinar,
        campaignId: 'c2',
        dateId: 201,
        adId: 'late',
        attendees: 1,
        recordedAt: at('2024-03-06T02:10:00Z'),
      });
    });
    afterAll(() => dbh.close());
    afterEach(() => vi.restoreAllMocks());

    const backtest = async (tasks: Record<string, Record<string, string>>) => {
      const request = { folder: folderId, days: 2, rule: ruleBody(tasks, everyHour()) } as BacktestRequest;
      return runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), { now: NOW, limits: NO_LIMIT });
    };
    const costPerAttendee = { cost_per_attendee: { cost: '40', min_registrations: '10' } };

    it('waits for the event, then pauses at the first hour after the show-ups were recorded, naming both costs', async () => {
      const result = await backtest(costPerAttendee);
      expect(result.from).toBe('2024-03-04T13:00:00.000Z');
      expect(result.results.map((r) => [r.at, r.object_id, r.task])).toEqual([
        ['2024-03-05T12:00:00.000Z', 'pricey', 'cost_per_attendee'],
        ['2024-03-06T03:00:00.000Z', 'late', 'cost_per_attendee'],
      ]);
      // The engine's own reason: the cost per attendee beside the raw CPL, as a live run records it.
      expect(result.results[0]!.reason).toMatchObject({
        'Cost per attendee': '$160.00 > $40.00',
        CPL: '$18.00',
        'Show-up': '2 of 20 registrants attended',
        'Settled spend': '$320.00',
        Campaign: 'EDM Campaign c1',
        Ad: 'Ad pricey',
      });
      expect(result.results[1]!.reason).toMatchObject({
        'Cost per attendee': '$320.00 > $40.00',
        CPL: '$25.50',
        'Show-up': '1 of 20 registrants attended',
      });
    });

    it('before the show-ups are recorded the task waits for the event; recorded late, they are unseen until then', async () => {
      const store = createOutcomeStore(dbh.db);
      const history = await store.history(adAccountId, START, NOW.getTime());
      const [, check] = OUTCOME_CHECKS.find(([task]) => task === 'cost_per_attendee')!;
      const verdict = (adId: string, iso: string) => {
        const metrics = {
          spend: 300,
          leads: 20,
          websiteLeads: 0,
          linkClicks: 0,
          clicks: null,
          impressions: 9_000,
          ctr: null,
          cpc: null,
        };
        return check(metrics, history.at(Date.parse(iso)).get(adId), { cost: 40, min_registrations: 10 }, 'USD')
          .verdict;
      };
      expect(verdict('pricey', '2024-03-05T07:00:00Z')).toBe('waiting_for_event');
      expect(history.at(Date.parse('2024-03-05T07:00:00Z')).get('pricey')).toMatchObject({
        eventsHappened: 0,
        nextEventAt: EVENT.toISOString(),
      });
      // The event has happened, its participants are not read yet.
      expect(verdict('pricey', '2024-03-05T10:00:00Z')).toBe('waiting_for_event');
      expect(verdict('pricey', '2024-03-05T12:00:00Z')).toBe('acted');
      expect(verdict('late', '2024-03-05T12:00:00Z')).toBe('waiting_for_event');
      expect(verdict('late', '2024-03-06T03:00:00Z')).toBe('acted');
      // A live run's store counts a date once its participants are read, as the replay does.
      expect((await store.qualityAt(adAccountId, at('2024-03-05T12:00:00Z'))).get('late')).toMatchObject({
        attendees: 0,
        eventsHappened: 0,
      });
      // Once everything is recorded, the history answers what the store does.
      const late = at('2024-03-06T12:00:00Z');
      expect(history.at(late.getTime())).toEqual(await store.qualityAt(adAccountId, late));
    });

    it('a rule without an outcome task reads no outcomes and pauses on its numbers alone', async () => {
      const outcomesRead = vi.spyOn(outcomeRows, 'readOutcomeRows');
      const result = await backtest({ trigger_cpl: { cpl: '25' } });
      expect(outcomesRead).not.toHaveBeenCalled();
      // $510 over 20 leads at 03:00: $25.50 > $25.00, for every ad alike (an hour's ads in the order of their ids).
      expect(result.results.map((r) => [r.at, r.object_id, r.reason.CPL])).toEqual(
        ['good', 'late', 'pricey'].map((id) => ['2024-03-06T03:00:00.000Z', id, '$25.50 > $25.00']),
      );
    });
  });
});

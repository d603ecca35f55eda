/**
 * The backtest's qualities hour by hour (server/outcomes/qualityHistory.ts) are the store's
 * computation (qualityOf.ts) on the facts known at each moment, whatever the facts: split by
 * campaign and computed anew only for the campaigns whose facts changed, the answer is the one the
 * whole account's facts give — with people on several ads and campaigns, dates shared by campaigns,
 * website registrations naming ads with and without leads, CRM facts by lead id or e-mail — and every
 * settled spend it reads was among those read up front.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Known } from '../../../server/outcomes/outcomeRows';
import type { QualityByAd } from '../../../server/outcomes/quality';
import { qualitiesOf, type LeadFact, type OutcomeFact } from '../../../server/outcomes/qualityOf';
import { QualityHistory, type KnownOutcomeFacts } from '../../../server/outcomes/qualityHistory';

const H = 3_600_000;
const SPAN = 200;
const CAMPAIGN_OF_AD: Record<string, string> = { a1: 'c1', a2: 'c1', a3: 'c2', a4: 'c2', a5: 'c3' };
const window = (stage: string) => (stage === 'qualified' ? 24 : 72) * H;

const hour = fc.integer({ min: 0, max: SPAN });
const email = fc.constantFrom('ann', 'ben', 'cy', 'dee', 'eve', 'fay', 'gus');
const facts: fc.Arbitrary<KnownOutcomeFacts> = fc
  .record({
    dates: fc.array(
      fc.record({
        campaignId: fc.constantFrom('c1', 'c2', 'c3'),
        dateId: fc.constantFrom('d1', 'd2', 'd3'),
        startsAt: hour,
        // Hours after its start its participants were read; null: not yet.
        readAfter: fc.option(fc.integer({ min: 0, max: 10 })),
      }),
      {
        maxLength: 5,
      },
    ),
    leads: fc.array(
      fc.record({ adId: fc.constantFrom(...Object.keys(CAMPAIGN_OF_AD)), email: fc.option(email), late: hour }),
      {
        maxLength: 25,
      },
    ),
    outcomes: fc.array(
      fc.oneof(
        fc.record({
          source: fc.constant('demio'),
          kind: fc.constantFrom('registered', 'attended'),
          leadKey: email,
          sourceRef: fc.constantFrom('d1', 'd2', 'd3'),
          adId: fc.option(fc.constantFrom('a1', 'a6', 'w9')),
          at: hour,
        }),
        fc.record({
          source: fc.constant('crm'),
          kind: fc.constantFrom('qualified', 'booked'),
          leadKey: fc.oneof(email, fc.constantFrom('L0', 'L1', 'L2', 'L3')),
          sourceRef: fc.constant(''),
          adId: fc.constant(null),
          at: hour,
        }),
      ),
      { maxLength: 40 },
    ),
    sendsCrm: fc.boolean(),
  })
  .map((f) => {
    // One row per (campaign, date), as campaign_events holds them; leads created at distinct moments.
    const dates = [
      ...new Map(
        f.dates.map(({ readAfter, ...d }) => [
          `${d.campaignId}|${d.dateId}`,
          { ...d, startsAt: d.startsAt * H, readAt: readAfter === null ? null : (d.startsAt + readAfter) * H },
        ]),
      ).values(),
    ];
    const leads: (LeadFact & Known)[] = f.leads.map((l, i) => ({
      leadId: `L${i}`,
      adId: l.adId,
      campaignId: CAMPAIGN_OF_AD[l.adId]!,
      email: l.email,
      created: i * H + 1,
      knownAt: i * H + 1 + l.late * H,
    }));
    const outcomes: (OutcomeFact & Known)[] = f.outcomes.map(({ at, ...o }) => ({ ...o, knownAt: at * H }));
    return {
      dates,
      leads,
      outcomes,
      sendsCrm: f.sendsCrm || outcomes.some((o) => o.source === 'crm'),
      campaignOfWebsiteAd: new Map([['a6', 'c2']]),
    };
  });

/** Every ad's spend at every date's start, made up. */
const spendsOf = (f: KnownOutcomeFacts) =>
  new Map(
    ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'w9'].flatMap((adId, i) =>
      f.dates.map((d) => [QualityHistory.spendKey(adId, d.startsAt), 100 * i + d.startsAt / H] as const),
    ),
  );

/** qualityOf.ts on all the facts known at `atMs` at once, as the store answers. */
function reference(f: KnownOutcomeFacts, atMs: number, spends: Map<string, number>) {
  const known = {
    ...f,
    leads: f.leads.filter((l) => l.knownAt <= atMs),
    outcomes: f.outcomes.filter((o) => o.knownAt <= atMs),
  };
  const { byAd, settledSpendAt } = qualitiesOf(known, atMs, window);
  const answer: QualityByAd = new Map();
  for (const [adId, { campaignId: _campaign, ...quality }] of byAd) {
    const at = settledSpendAt.get(adId);
    answer.set(adId, {
      ...quality,
      settledSpend: at === undefined ? null : (spends.get(QualityHistory.spendKey(adId, at)) ?? null),
    });
  }
  return { answer, settledSpendAt };
}

describe('the qualities a backtest reads hour by hour', () => {
  it('are the store’s computation on the facts known at each moment, asked in any order', () => {
    fc.assert(
      fc.property(
        facts,
        fc.array(hour, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: SPAN / 2 }),
        (f, hours, from) => {
          const spends = spendsOf(f);
          const history = new QualityHistory(f, window, spends);
          const moments = QualityHistory.settledSpendMoments(f, from * H, (SPAN + 1) * H);
          for (const h of [...hours.sort((a, b) => a - b), ...hours.reverse()]) {
            const atMs = h * H;
            const expected = reference(f, atMs, spends);
            expect(history.at(atMs)).toEqual(expected.answer);
            if (h >= from)
              for (const [adId, moment] of expected.settledSpendAt) expect(moments.get(moment), adId).toContain(adId);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

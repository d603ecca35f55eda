/**
 * What each ad's leads had become at any moment of a span, as known then — for the backtest, which
 * asks at every scheduled hour. A lead counts once created and read, a fact once it occurred and was
 * recorded (a show-up recorded hours after its event is unseen before), a date has happened from its
 * start. Computed in memory (qualityOf.ts) from rows read once (OutcomeStore.history).
 *
 * An ad's quality reads only its campaign's leads and dates, the facts of those dates, its own
 * website registrations and the CRM facts of its leads, so the facts are split by campaign and a
 * campaign's ads are computed anew only when one of its moments (a fact known, a date started, a
 * lead past a stage's window) passed since the last answer: most hours, a few campaigns.
 */
import type { Known } from './outcomeRows';
import { LEAD_STAGES, type AdQuality, type QualityByAd } from './quality';
import {
  qualitiesOf,
  type EventDateFact,
  type LeadFact,
  type OutcomeFact,
  type OutcomeFacts,
  type StageWindowMs,
} from './qualityOf';

export interface KnownOutcomeFacts extends OutcomeFacts {
  leads: readonly (LeadFact & Known)[];
  outcomes: readonly (OutcomeFact & Known)[];
}

/** The group of the ads no campaign is known for (a website registration naming an unknown ad). */
const NO_CAMPAIGN = '';

const byKnownAt = (a: Known, b: Known) => a.knownAt - b.knownAt;

/** How many of the sorted values are at or before `atMs`. */
function countUpTo(sorted: ArrayLike<number>, atMs: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! <= atMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

const addTo = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** One campaign's facts, and its ads' qualities at the last moment asked about. */
class CampaignFacts {
  readonly leads: (LeadFact & Known)[] = [];
  readonly outcomes: (OutcomeFact & Known)[] = [];
  readonly dates: EventDateFact[] = [];
  private leadsKnownAt = new Float64Array();
  private outcomesKnownAt = new Float64Array();
  /** Every moment its answer may change at, sorted: how many have passed names the answer. */
  private changes = new Float64Array();
  private passed = -1;
  byAd = new Map<string, { quality: Omit<AdQuality, 'settledSpend'>; spendAt: number | undefined }>();

  /** Sorts what was added; call once, before asking. */
  seal(stageWindowMs: StageWindowMs, sendsCrm: boolean) {
    this.leads.sort(byKnownAt);
    this.outcomes.sort(byKnownAt);
    this.leadsKnownAt = Float64Array.from(this.leads, (l) => l.knownAt);
    this.outcomesKnownAt = Float64Array.from(this.outcomes, (o) => o.knownAt);
    const changes = [
      ...this.leadsKnownAt,
      ...this.outcomesKnownAt,
      ...this.dates.flatMap((d) => (d.readAt === null ? [d.startsAt] : [d.startsAt, d.readAt])),
    ];
    // A lead joins a stage's judged leads once it is older than the stage's window.
    if (sendsCrm)
      for (const stage of LEAD_STAGES) for (const l of this.leads) changes.push(l.created + stageWindowMs(stage));
    this.changes = Float64Array.from(changes).sort();
  }

  /** Brings the answer to `atMs`; true when it was computed anew. */
  advanceTo(atMs: number, shared: Omit<OutcomeFacts, 'leads' | 'outcomes' | 'dates'>, stageWindowMs: StageWindowMs) {
    const passed = countUpTo(this.changes, atMs);
    if (passed === this.passed) return false;
    this.passed = passed;
    const known: OutcomeFacts = {
      ...shared,
      dates: this.dates,
      leads: this.leads.slice(0, countUpTo(this.leadsKnownAt, atMs)),
      outcomes: this.outcomes.slice(0, countUpTo(this.outcomesKnownAt, atMs)),
    };
    const { byAd, settledSpendAt } = qualitiesOf(known, atMs, stageWindowMs);
    this.byAd = new Map(
      [...byAd].map(([adId, { campaignId: _campaign, settledSpend: _spend, ...quality }]) => [
        adId,
        { quality, spendAt: settledSpendAt.get(adId) },
      ]),
    );
    return true;
  }
}

export class QualityHistory {
  private readonly campaigns = new Map<string, CampaignFacts>();
  /** The campaign whose facts each ad is judged on. */
  private readonly homeOf = new Map<string, string>();
  private answer: QualityByAd | null = null;

  constructor(
    private readonly facts: KnownOutcomeFacts,
    private readonly stageWindowMs: StageWindowMs,
    /** Each ad's lifetime spend at the start of a date (spendKey), from the metric history. */
    private readonly spends: ReadonlyMap<string, number>,
  ) {
    const campaign = (id: string) => {
      let group = this.campaigns.get(id);
      if (!group) {
        group = new CampaignFacts();
        this.campaigns.set(id, group);
      }
      return group;
    };
    const campaignsOfDate = new Map<string, string[]>();
    for (const d of facts.dates) {
      campaign(d.campaignId).dates.push(d);
      addTo(campaignsOfDate, d.dateId, d.campaignId);
    }
    const campaignsOfLeadKey = new Map<string, string[]>();
    for (const l of [...facts.leads].sort(byKnownAt)) {
      campaign(l.campaignId).leads.push(l);
      this.homeOf.set(l.adId, l.campaignId);
      addTo(campaignsOfLeadKey, l.leadId, l.campaignId);
      if (l.email) addTo(campaignsOfLeadKey, l.email, l.campaignId);
    }
    for (const o of facts.outcomes) {
      const into = new Set(
        o.source === 'crm' ? campaignsOfLeadKey.get(o.leadKey) : (campaignsOfDate.get(o.sourceRef) ?? []),
      );
      if (o.source === 'demio' && o.adId) {
        const home = this.homeOf.get(o.adId) ?? facts.campaignOfWebsiteAd.get(o.adId) ?? NO_CAMPAIGN;
        this.homeOf.set(o.adId, home);
        into.add(home);
      }
      for (const id of into) campaign(id).outcomes.push(o);
    }
    for (const group of this.campaigns.values()) group.seal(stageWindowMs, facts.sendsCrm);
  }

  static spendKey = (adId: string, moment: number) => `${adId}|${moment}`;

  /**
   * The dates whose start each ad's settled spend may be read at during [fromMs, toMs): those of its
   * campaign starting inside the span, the last one read before it, and those started before it but
   * read later; by moment.
   */
  static settledSpendMoments(facts: OutcomeFacts, fromMs: number, toMs: number): Map<number, string[]> {
    const campaignsOf = new Map<string, Set<string>>();
    const addCampaign = (adId: string, campaignId: string | undefined) => {
      if (campaignId !== undefined) campaignsOf.set(adId, (campaignsOf.get(adId) ?? new Set()).add(campaignId));
    };
    for (const l of facts.leads) addCampaign(l.adId, l.campaignId);
    for (const o of facts.outcomes) if (o.adId) addCampaign(o.adId, facts.campaignOfWebsiteAd.get(o.adId));
    const datesOf = new Map<string, EventDateFact[]>();
    for (const d of facts.dates) addTo(datesOf, d.campaignId, d);
    const moments = new Map<number, string[]>();
    for (const [adId, campaigns] of campaignsOf) {
      const dates = [...campaigns].flatMap((c) => datesOf.get(c) ?? []);
      // Read by the span's start: only the last can be the one; started before it but read later (or
      // not yet): any may become the last happened one during it.
      const readBefore = dates.filter((d) => d.startsAt <= fromMs && d.readAt !== null && d.readAt <= fromMs);
      const lastRead = Math.max(...readBefore.map((d) => d.startsAt));
      const starts = dates
        .filter((d) => (d.startsAt <= fromMs ? !readBefore.includes(d) || d.startsAt === lastRead : d.startsAt < toMs))
        .map((d) => d.startsAt);
      for (const moment of new Set(starts)) addTo(moments, moment, adId);
    }
    return moments;
  }

  /** Each ad's quality as known at `atMs` (ads with nothing known have no entry). */
  at(atMs: number): QualityByAd {
    const shared = { sendsCrm: this.facts.sendsCrm, campaignOfWebsiteAd: this.facts.campaignOfWebsiteAd };
    let changed = false;
    for (const group of this.campaigns.values()) changed = group.advanceTo(atMs, shared, this.stageWindowMs) || changed;
    if (this.answer && !changed) return this.answer;
    const answer: QualityByAd = new Map();
    for (const [id, group] of this.campaigns)
      for (const [adId, { quality, spendAt }] of group.byAd) {
        if (this.homeOf.get(adId) !== id) continue;
        const settledSpend =
          spendAt === undefined ? null : (this.spends.get(QualityHistory.spendKey(adId, spendAt)) ?? null);
        answer.set(adId, { ...quality, settledSpend });
      }
    this.answer = answer;
    return answer;
  }
}

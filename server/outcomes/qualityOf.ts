/**
 * What each ad's leads had become at a moment, from the outcome rows the caller hands over as
 * known then — the one computation behind the store's qualityAt (store.ts) and the backtest's
 * hour-by-hour answers (qualityHistory.ts). Pure: `settledSpend` is left null, and the moment to
 * read it at (the start of the ad's last happened date) is returned for the caller to fill from
 * the metric history. The rules are store.ts's (its header comment).
 */
import { LEAD_STAGES, type AdQuality, type LeadStage } from './quality';

export interface LeadFact {
  leadId: string;
  adId: string;
  campaignId: string;
  email: string | null;
  created: number;
}

export interface EventDateFact {
  campaignId: string;
  dateId: string;
  startsAt: number;
  /**
   * When its participants were read (ms), null while not yet: a date counts as happened only once
   * read — its spend is settled from its start, and counting that spend before its registrants
   * would make every cost look dearer for the hours in between.
   */
  readAt: number | null;
}

export interface OutcomeFact {
  source: string;
  kind: string;
  leadKey: string;
  sourceRef: string;
  /** The ad a website registration's UTM names. */
  adId: string | null;
}

export interface OutcomeFacts {
  leads: readonly LeadFact[];
  dates: readonly EventDateFact[];
  outcomes: readonly OutcomeFact[];
  /** The account's folders send CRM outcomes at all: stages are answered (none reached is still 0 of N). */
  sendsCrm: boolean;
  /** The campaign of an ad known only from a website registration (its history names). */
  campaignOfWebsiteAd: ReadonlyMap<string, string>;
}

/** An ad's quality with the campaign it belongs to (the campaigns list sums them). */
export interface AdQualityOfCampaign extends AdQuality {
  campaignId: string | null;
}

export type StageWindowMs = (stage: LeadStage) => number;

const add = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

const addToSet = (map: Map<string, Set<string>>, key: string, value: string) => {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
};

export function qualitiesOf(
  facts: OutcomeFacts,
  atMs: number,
  stageWindowMs: StageWindowMs,
): { byAd: Map<string, AdQualityOfCampaign>; settledSpendAt: Map<string, number> } {
  const { leads } = facts;
  // Dates by campaign; Demio facts by date (source_ref is the date id) and CRM facts by lead key.
  const datesOf = new Map<string, EventDateFact[]>();
  for (const d of facts.dates) add(datesOf, d.campaignId, d);
  const registered = new Map<string, Set<string>>();
  const attended = new Map<string, Set<string>>();
  const websiteByAd = new Map<string, { email: string; dateId: string }[]>();
  const stagesByKey = new Map<string, Set<string>>();
  for (const o of facts.outcomes) {
    if (o.source === 'demio') {
      const into = o.kind === 'attended' ? attended : o.kind === 'registered' ? registered : undefined;
      if (!into) continue;
      addToSet(into, o.sourceRef, o.leadKey);
      if (o.kind === 'registered' && o.adId) add(websiteByAd, o.adId, { email: o.leadKey, dateId: o.sourceRef });
    } else if (o.source === 'crm') {
      addToSet(stagesByKey, o.leadKey, o.kind);
    }
  }
  const hasCrm = stagesByKey.size > 0 || facts.sendsCrm;

  const leadsByAd = new Map<string, LeadFact[]>();
  for (const lead of leads) add(leadsByAd, lead.adId, lead);
  const campaignOfAd = new Map(leads.map((l) => [l.adId, l.campaignId]));
  // A person who left leads on two ads of one campaign is the first one's.
  const firstLead = new Map<string, LeadFact>();
  for (const lead of leads) {
    const key = `${lead.campaignId}|${lead.email}`;
    const first = firstLead.get(key);
    if (lead.email && (!first || lead.created < first.created)) firstLead.set(key, lead);
  }

  const byAd = new Map<string, AdQualityOfCampaign>();
  const settledSpendAt = new Map<string, number>();
  for (const adId of new Set([...leadsByAd.keys(), ...websiteByAd.keys()])) {
    const campaignId = campaignOfAd.get(adId) ?? facts.campaignOfWebsiteAd.get(adId) ?? null;
    const dates = (campaignId ? datesOf.get(campaignId) : undefined) ?? [];
    const happened = dates.filter((d) => d.startsAt <= atMs && d.readAt !== null && d.readAt <= atMs);
    const upcoming = dates.filter((d) => !happened.includes(d)).sort((a, b) => a.startsAt - b.startsAt);
    const own = leadsByAd.get(adId) ?? [];
    const ownEmails = new Set(own.flatMap((l) => (l.email ? [l.email] : [])));
    const dateIds = new Set(happened.map((d) => d.dateId));
    const people = new Set<string>();
    for (const email of ownEmails)
      if (
        firstLead.get(`${campaignId}|${email}`)?.adId === adId &&
        happened.some((d) => registered.get(d.dateId)?.has(email))
      )
        people.add(email);
    for (const w of websiteByAd.get(adId) ?? [])
      if (dateIds.has(w.dateId) && !ownEmails.has(w.email)) people.add(w.email);
    const attendees = [...people].filter((email) => happened.some((d) => attended.get(d.dateId)?.has(email)));
    const lastHappened = happened.length ? Math.max(...happened.map((d) => d.startsAt)) : null;
    if (lastHappened !== null) settledSpendAt.set(adId, lastHappened);
    byAd.set(adId, {
      campaignId,
      registrations: people.size,
      settledRegistrations: people.size,
      attendees: attendees.length,
      eventsHappened: happened.length,
      nextEventAt: upcoming[0] ? new Date(upcoming[0].startsAt).toISOString() : null,
      settledSpend: null,
      stages: hasCrm ? stagesOf(own, stagesByKey, atMs, stageWindowMs) : {},
    });
  }
  return { byAd, settledSpendAt };
}

function stagesOf(
  own: LeadFact[],
  stagesByKey: Map<string, Set<string>>,
  atMs: number,
  stageWindowMs: StageWindowMs,
): AdQuality['stages'] {
  const stages: AdQuality['stages'] = {};
  for (const stage of LEAD_STAGES) {
    const windowMs = stageWindowMs(stage);
    const reached = own.filter(
      (l) => stagesByKey.get(l.leadId)?.has(stage) || (l.email !== null && stagesByKey.get(l.email)?.has(stage)),
    ).length;
    stages[stage] = { reached, judged: own.filter((l) => l.created <= atMs - windowMs).length };
  }
  return stages;
}

/** The ads named only by a website registration (no lead of theirs among `leads`): their campaigns are looked up. */
export function websiteOnlyAds(leads: readonly LeadFact[], outcomes: readonly OutcomeFact[]): string[] {
  const withLeads = new Set(leads.map((l) => l.adId));
  const named = outcomes.flatMap((o) =>
    o.source === 'demio' && o.kind === 'registered' && o.adId && !withLeads.has(o.adId) ? [o.adId] : [],
  );
  return [...new Set(named)];
}

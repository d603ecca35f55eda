/**
 * What an ad's leads became: Demio participants joined to the ad's leads by e-mail hash, or — for a
 * registration from the website, which has no lead — by the UTM field naming the ad (`utm_content`
 * carries the ad id, as the agency's URL parameters `utm_content={{ad.id}}` write it).
 *
 * Counted per person, not per registration: a lead who registered for two dates counts once, as an
 * attendee if they attended either. A person who submitted two ads' forms is credited to the ad of
 * their first lead. An e-mail match wins over a UTM field. Participants matching neither a lead nor an
 * ad in the set are counted apart (`unmatched`): organic registrations, other campaigns' people.
 */

export interface LeadForJoin {
  id: string;
  adId: string;
  /** ms */
  createdTime: number;
  emailHash: string | null;
}

export interface ParticipantForJoin {
  dateId: number;
  emailHash: string | null;
  attended: boolean;
  /** Registration fields named utm_*, when the registration carried them. */
  utm?: Partial<Record<'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_content' | 'utm_term', string>>;
}

export interface AdOutcome {
  adId: string;
  leads: number;
  /** People credited to the ad who registered for any of the dates (leads and website registrations). */
  registrations: number;
  /** Of them, registered from the website (matched by UTM, no lead). */
  websiteRegistrations: number;
  attendees: number;
  /** attendees ÷ registrations; null without registrations. */
  showUpRate: number | null;
  spend: number | null;
  /** spend ÷ attendees; null without attendees or spend. */
  costPerAttendee: number | null;
  costPerRegistration: number | null;
}

export interface JoinResult {
  ads: AdOutcome[];
  /** Participants (registrations) matched to no lead and no ad of the set. */
  unmatched: number;
}

interface Person {
  adId: string;
  website: boolean;
  attended: boolean;
}

export function joinOutcomes(
  leads: readonly LeadForJoin[],
  participants: readonly ParticipantForJoin[],
  spendByAd: ReadonlyMap<string, number> = new Map(),
): JoinResult {
  const firstLead = new Map<string, LeadForJoin>();
  for (const lead of [...leads].sort((a, b) => a.createdTime - b.createdTime))
    if (lead.emailHash && !firstLead.has(lead.emailHash)) firstLead.set(lead.emailHash, lead);
  const knownAds = new Set([...leads.map((lead) => lead.adId), ...spendByAd.keys()]);

  const people = new Map<string, Person>();
  let unmatched = 0;
  participants.forEach((participant, index) => {
    const lead = participant.emailHash ? firstLead.get(participant.emailHash) : undefined;
    const utmAd = participant.utm?.utm_content?.trim();
    const adId = lead?.adId ?? (utmAd && knownAds.has(utmAd) ? utmAd : undefined);
    if (!adId) {
      unmatched += 1;
      return;
    }
    const key = lead ? `lead:${lead.id}` : `web:${participant.emailHash ?? `#${index}`}`;
    const person = people.get(key) ?? { adId, website: !lead, attended: false };
    person.attended ||= participant.attended;
    people.set(key, person);
  });

  const ads = [...new Set([...knownAds, ...[...people.values()].map((p) => p.adId)])].map((adId) => {
    const credited = [...people.values()].filter((p) => p.adId === adId);
    const registrations = credited.length;
    const attendees = credited.filter((p) => p.attended).length;
    const spend = spendByAd.get(adId) ?? null;
    return {
      adId,
      leads: leads.filter((lead) => lead.adId === adId).length,
      registrations,
      websiteRegistrations: credited.filter((p) => p.website).length,
      attendees,
      showUpRate: registrations ? attendees / registrations : null,
      spend,
      costPerAttendee: spend !== null && attendees ? spend / attendees : null,
      costPerRegistration: spend !== null && registrations ? spend / registrations : null,
    };
  });
  return { ads, unmatched };
}

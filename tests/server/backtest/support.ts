/** Backtest test set-up: readings written as a live read would have kept them, hour by hour. */
import type { BacktestResult } from '../../../server/backtest/service';
import type { Database } from '../../../server/db/client';
import { CARRIED_OVER_JUDGING, type RuleJudging } from '../../../shared/judging';
import { campaignEvents, leadOutcomes, leadPeople } from '../../../server/db/schema/index';
import { recordReading } from '../../../server/history/record';
import { WEBSITE_LEAD } from '../../../server/adplatform/insightValues';
import { emailHash } from '../../../server/webinar/emailHash';

export interface AdAtHour {
  id: string;
  campaignId?: string;
  spend: number;
  leads?: number;
  /** Of its leads, those from the website (pixel). */
  websiteLeads?: number;
  /** The ad set's optimization_goal, as the insights report it. */
  goal?: string;
  on?: boolean;
}

const actionsOf = (a: AdAtHour) => {
  const actions = [];
  if (a.leads) actions.push({ action_type: 'lead', value: String(a.leads) });
  if (a.websiteLeads) actions.push({ action_type: WEBSITE_LEAD, value: String(a.websiteLeads) });
  return actions.length ? { actions } : {};
};

/** One reading of the account at `at`: every listed ad with its lifetime numbers then. */
export async function readAt(db: Database, adAccountId: string, at: string, ads: AdAtHour[]) {
  const campaigns = [...new Set(ads.map((a) => a.campaignId ?? 'c1'))].map((id) => ({
    id,
    name: `EDM Campaign ${id}`,
    status: 'ACTIVE',
    effective_status: 'ACTIVE',
    daily_budget: '24000',
  }));
  await recordReading(db, {
    adAccountId,
    readAt: new Date(at),
    campaigns,
    ads: ads.map((a) => {
      const status = a.on === false ? 'PAUSED' : 'ACTIVE';
      return {
        id: a.id,
        name: `Ad ${a.id}`,
        status,
        effective_status: status,
        campaign_id: a.campaignId ?? 'c1',
        adset_id: 's1',
      };
    }),
    insights: ads.map((a) => ({
      campaign_id: a.campaignId ?? 'c1',
      campaign_name: `EDM Campaign ${a.campaignId ?? 'c1'}`,
      ad_id: a.id,
      ad_name: `Ad ${a.id}`,
      spend: a.spend.toFixed(2),
      impressions: String(Math.round(a.spend * 40)),
      clicks: String(Math.round(a.spend)),
      inline_link_clicks: String(Math.round(a.spend / 2)),
      ...(a.goal ? { optimization_goal: a.goal } : {}),
      ...actionsOf(a),
    })),
  });
}

export interface Webinar {
  adAccountId: string;
  folderId: number;
  campaignId: string;
  adId: string;
  dateId: number;
  startsAt: Date;
  /** Form leads of the ad (all registered for the date), created and read before it. */
  registrants: number;
  /** Of them, those who attended. */
  attendees: number;
  /** When the date's participants were read and recorded (Demio's, hours after the start). */
  recordedAt: Date;
}

/** One webinar date of a campaign, an ad's form leads registered for it, their show-ups recorded at `recordedAt`. */
export async function seedWebinar(db: Database, w: Webinar) {
  await db
    .insert(campaignEvents)
    .values({
      folderId: w.folderId,
      adAccountId: w.adAccountId,
      campaignId: w.campaignId,
      eventId: w.dateId,
      dateId: w.dateId,
      startsAt: w.startsAt,
      source: 'name',
      participantsReadAt: w.recordedAt,
    })
    .onConflictDoNothing();
  const people = Array.from({ length: w.registrants }, (_, i) => emailHash(`${w.adId}.${i}@example.com`)!);
  const created = new Date(w.startsAt.getTime() - 3 * 86_400_000);
  await db.insert(leadPeople).values(
    people.map((email, i) => ({
      leadId: `${w.adId}-lead-${i}`,
      adAccountId: w.adAccountId,
      adId: w.adId,
      campaignId: w.campaignId,
      emailSha256: email,
      createdTime: created,
      readAt: created,
    })),
  );
  const fact = (leadKey: string, kind: string) => ({
    folderId: w.folderId,
    leadKey,
    kind,
    occurredAt: w.startsAt,
    source: 'demio',
    sourceRef: String(w.dateId),
    recordedAt: w.recordedAt,
  });
  await db
    .insert(leadOutcomes)
    .values([
      ...people.map((email) => fact(email, 'registered')),
      ...people.slice(0, w.attendees).map((email) => fact(email, 'attended')),
    ]);
}

export const everyHour = () => Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));

/** A rule body as the editor sends it; it judges as a rule made before the judging settings unless told otherwise. */
export const ruleBody = (
  tasks: Record<string, Record<string, string>>,
  schedule = everyHour(),
  timezone = 'UTC',
  judging: RuleJudging = CARRIED_OVER_JUDGING,
) => ({
  name: 'Try',
  rule_filter: [
    { name: 'campaign_name_contains', values: ['EDM'], is_active: true },
    { name: 'campaign_name_not_contains', values: [], is_active: false },
  ],
  rule_task: Object.entries(tasks).map(([name, values]) => ({ name, values, is_active: true })),
  rule_schedule: { schedule, timezone },
  judging,
});

/** A finished backtest's full answer with `pauses` pauses, as runBacktest returns it (for the job tests). */
export const fakeResult = (pauses: number): BacktestResult => ({
  rule: { id: null, name: 'Try' },
  account: { ad_account_id: 'act_1', account_name: 'Harbor Wealth', currency: 'USD' },
  from: '2026-01-01T00:00:00.000Z',
  to: '2026-01-31T00:00:00.000Z',
  days: 30,
  timezone: 'UTC',
  slots: 720,
  slots_without_data: 0,
  history: { first: '2026-01-01', last: '2026-01-31', settled_share: 0 },
  totals: { pauses, held: 0, converters_paused: 0, spend_stopped: 0, leads_lost: 0, revives: 0 },
  by_day: [{ date: '2026-01-01', pauses, converters_paused: 0, spend_stopped: 0 }],
  results: Array.from({ length: pauses }, (_, i) => ({
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    object_type: 'ad' as const,
    object_id: `ad_${i}`,
    name: `Ad number ${i} of the Harbor Wealth spring webinar campaign`,
    campaign_id: 'c1',
    campaign_name: 'Harbor Wealth spring webinar campaign',
    task: 'spend_cpl_no_leads',
    reason: { Campaign: 'Harbor Wealth spring webinar campaign', Spend: '$70.00 > $50.00', Leads: '0' },
    settled_numbers: false,
    spend_at_pause: 70,
    leads_at_pause: 0,
    spend_after: 0,
    leads_after: 0,
    final_cpl: null,
    verdict: 'stopped_waste' as const,
    revived_at: null,
  })),
});

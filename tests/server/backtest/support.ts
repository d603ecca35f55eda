/** Backtest test set-up: readings written as a live read would have kept them, hour by hour. */
import type { Database } from '../../../server/db/client';
import { CARRIED_OVER_JUDGING, type RuleJudging } from '../../../src/domain/judging';
import { recordReading } from '../../../server/history/record';
import { WEBSITE_LEAD } from '../../../server/adplatform/insightValues';

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

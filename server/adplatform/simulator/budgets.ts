/**
 * Budgets as Graph keeps them: a campaign either has its own budget (Advantage campaign budget),
 * daily or lifetime, or leaves budgets to its ad sets. Amounts are minor units (cents) as strings.
 * Reading budget fields, and checking a budget write the way Graph refuses one (in Graph's
 * "Invalid parameter" shape, public reports: facebook-php-business-sdk#338 for "Budget Is Too Low",
 * pipeboard-co/meta-ads-mcp#71 for subcode 1885621, an ad-set budget under a campaign budget).
 */
import { DateTime } from 'luxon';
import { errorAnswer, type GraphAnswer, type Params } from './answers';
import { adTotals } from './delivery';
import type { SimAd, SimAdSet, SimCampaign, World } from './world';

/** The world at a moment (nodes.ts passes its NodeContext). */
interface NodeContext {
  world: World;
  now: number;
}

/** The account's minimum daily budget in cents (AdAccount.min_daily_budget). */
export const MIN_DAILY_BUDGET_CENTS = 100;

type Budgeted = SimCampaign | SimAdSet;

function spendCents(context: NodeContext, ads: SimAd[], from: number): number {
  let spend = 0;
  for (const ad of ads) {
    const adset = context.world.adsets.get(ad.adsetId)!;
    const campaign = context.world.campaigns.get(ad.campaignId)!;
    spend += adTotals(ad, adset, campaign, from, context.now).spend;
  }
  return Math.round(spend * 100);
}

export function accountSpendCents(context: NodeContext, accountId: string): number {
  return spendCents(
    context,
    [...context.world.ads.values()].filter((ad) => ad.accountId === accountId),
    -Infinity,
  );
}

const adsUnder = (context: NodeContext, node: Budgeted) =>
  'campaignId' in node
    ? context.world.adsOf(node.campaignId).filter((ad) => ad.adsetId === node.id)
    : context.world.adsOf(node.id);

/** A daily budget less today's spend (account time zone), a lifetime budget less all spend, else 0. */
export function budgetRemaining(node: Budgeted, context: NodeContext): string {
  if (node.lifetimeBudgetCents !== undefined)
    return String(Math.max(0, node.lifetimeBudgetCents - spendCents(context, adsUnder(context, node), -Infinity)));
  if (node.dailyBudgetCents === undefined) return '0';
  const zone = context.world.account(node.accountId)!.timezone;
  const today = DateTime.fromMillis(context.now, { zone }).startOf('day').toMillis();
  return String(Math.max(0, node.dailyBudgetCents - spendCents(context, adsUnder(context, node), today)));
}

const invalid = (subcode: number | undefined, title: string, message: string) =>
  errorAnswer(400, 100, 'Invalid parameter', {
    ...(subcode ? { error_subcode: subcode } : {}),
    is_transient: false,
    error_user_title: title,
    error_user_msg: message,
  });

/**
 * The budget a write asks for (`{daily}` or `{lifetime}`, cents), undefined when it sets none, or
 * Graph's refusal.
 */
export function budgetWrite(
  node: Budgeted,
  params: Params,
  campaignOf: (adset: SimAdSet) => SimCampaign,
): { daily?: number; lifetime?: number } | undefined | GraphAnswer {
  const daily = params.daily_budget;
  const lifetime = params.lifetime_budget;
  if (daily === undefined && lifetime === undefined) return undefined;
  if (daily !== undefined && lifetime !== undefined)
    return errorAnswer(400, 100, '(#100) Only one of daily_budget and lifetime_budget can be set');
  const [param, raw] = daily !== undefined ? ['daily_budget', daily] : ['lifetime_budget', lifetime!];
  if (!/^\d+$/.test(raw.trim()))
    return errorAnswer(400, 100, `(#100) Param ${param} must be a whole number of minor currency units (cents)`);
  const cents = Number(raw);
  const kind = 'campaignId' in node ? 'ad set' : 'campaign';
  if ('campaignId' in node) {
    const campaign = campaignOf(node);
    if (campaign.dailyBudgetCents !== undefined || campaign.lifetimeBudgetCents !== undefined)
      return invalid(
        1885621,
        'Ad Set Budget Not Allowed',
        "This ad set's campaign has a campaign budget, so the ad set cannot have its own. Change the campaign's budget instead.",
      );
  } else if (node.dailyBudgetCents === undefined && node.lifetimeBudgetCents === undefined) {
    return invalid(
      1885621,
      'Campaign Budget Not Allowed',
      "This campaign's ad sets have their own budgets. Change an ad set's budget instead.",
    );
  }
  const hasLifetime = node.lifetimeBudgetCents !== undefined;
  if ((param === 'lifetime_budget') !== hasLifetime)
    return invalid(
      undefined,
      "Can't Switch Budget Type",
      `This ${kind} has a ${hasLifetime ? 'lifetime' : 'daily'} budget; it cannot be changed to a ${hasLifetime ? 'daily' : 'lifetime'} budget.`,
    );
  if (cents < MIN_DAILY_BUDGET_CENTS)
    return invalid(
      1885272,
      'Budget Is Too Low',
      `The budget for this ${kind} must be at least $${(MIN_DAILY_BUDGET_CENTS / 100).toFixed(2)}.`,
    );
  return param === 'daily_budget' ? { daily: cents } : { lifetime: cents };
}

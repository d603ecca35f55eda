/**
 * The agency overview (`GET /api/overview/`): one row per live folder, read in a few set-based
 * statements whatever the number of folders — the folders with their ad accounts, then at once the
 * accounts' daily totals, the rules' thresholds, today's actions, the held runs waiting and the
 * accounts' health.
 *
 * Spend and leads are the account's daily totals the health check reads from the platform at every
 * sync (account_day_readings, server/health/): each local day of the account's time zone, its
 * latest reading. Today is the account's today; the week its last 7 days, today included.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleItems, rules } from '../db/schema/index';
import { createHealthStore } from '../health/store';
import { resultRows } from '../http/pagination';
import { validZone } from '../judgement/scheduleSlots';
import type { AgencyOverview, OverviewPeriod, OverviewRow } from '../../shared/overview';
import { attentionOf, byNeed } from './attention';

/** Days of the week's period, today included. */
export const WEEK_DAYS = 7;

/** What a rule did when it acted: turned something off or on, changed or rolled back a budget, revived an ad. */
export const ACTING_ACTIONS = [
  'turn_off_ad',
  'turn_off_campaign',
  'rule_turn_on_ad',
  'rule_turn_on_campaign',
  'raise_budget',
  'lower_budget',
  'restore_budget',
  'revive_ad',
] as const;

const CPL_TASKS = ['trigger_cpl', 'website_cpl'];
const NO_LEADS_TASK = 'spend_cpl_no_leads';

interface LiveFolder {
  id: number;
  name: string;
  clientType: string;
  adAccountId: string;
  accountName: string;
  timezone: string;
  currency: string;
}

/** The local days of a time zone at `now`: today first, then the 6 before; and when today began. */
interface ZoneDays {
  days: string[];
  todayStart: Date;
}

function daysIn(zone: string, now: Date): ZoneDays {
  const today = DateTime.fromJSDate(now, { zone: validZone(zone) }).startOf('day');
  return {
    days: Array.from({ length: WEEK_DAYS }, (_, back) => today.minus({ days: back }).toISODate()!),
    todayStart: today.toJSDate(),
  };
}

const liveFolders = (db: Database): Promise<LiveFolder[]> =>
  db
    .select({
      id: folders.id,
      name: folders.name,
      clientType: folders.clientType,
      adAccountId: folders.adAccountId,
      accountName: metaAdAccounts.accountName,
      timezone: metaAdAccounts.timezoneName,
      currency: metaAdAccounts.currency,
    })
    .from(folders)
    .innerJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(eq(folders.isDeleted, false));

interface DayTotal {
  account: string;
  day: string;
  spend: number;
  leads: number;
  readMs: number;
}

/** Each asked (account, day)'s latest reading: one index probe each (the table keeps a reading per hour of age). */
async function dayTotals(db: Database, asked: { account: string; day: string }[]): Promise<DayTotal[]> {
  if (!asked.length) return [];
  const rows = resultRows<DayTotal>(
    await db.execute(sql`
      select asked.account, asked.day, r.spend::float8 as spend,
        (case when r.leads > 0 then r.leads else r.website_leads end)::float8 as leads,
        (extract(epoch from r.read_at) * 1000)::float8 as "readMs"
      from jsonb_to_recordset(${JSON.stringify(asked)}::jsonb) as asked(account text, day text)
      cross join lateral (
        select d.spend, d.leads, d.website_leads, d.read_at from account_day_readings d
        where d.ad_account_id = asked.account and d.day = asked.day
        order by d.age_hours desc
        limit 1
      ) r`),
  );
  return rows.map((r) => ({ ...r, spend: Number(r.spend), leads: Number(r.leads), readMs: Number(r.readMs) }));
}

interface Thresholds {
  cpl: number | null;
  noLeadsSpend: number | null;
}

const positive = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
};

const lowest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** The lowest CPL and no-leads spend thresholds of each folder's active rules' active tasks. */
async function thresholdsOf(db: Database): Promise<Map<number, Thresholds>> {
  const items = await db
    .select({ folderId: rules.folderId, name: ruleItems.name, values: ruleItems.values })
    .from(ruleItems)
    .innerJoin(rules, eq(rules.id, ruleItems.ruleId))
    .where(
      and(
        eq(rules.isActive, true),
        eq(rules.isDeleted, false),
        eq(ruleItems.type, 'rule_task'),
        eq(ruleItems.isActive, true),
        inArray(ruleItems.name, [...CPL_TASKS, NO_LEADS_TASK]),
      ),
    );
  const byFolder = new Map<number, Thresholds>();
  for (const { folderId, name, values } of items) {
    const own = byFolder.get(folderId) ?? { cpl: null, noLeadsSpend: null };
    const v = (values ?? {}) as Record<string, unknown>;
    if (name === NO_LEADS_TASK) own.noLeadsSpend = lowest(own.noLeadsSpend, positive(v.spend));
    else own.cpl = lowest(own.cpl, positive(v.cpl));
    byFolder.set(folderId, own);
  }
  return byFolder;
}

interface Acted {
  folderId: number;
  actions: number;
  rules: number;
}

/** What each folder's rules did since its account's midnight: a range of its entries each (rule_activity_folder_idx). */
async function actedToday(db: Database, since: { folder_id: number; since: string }[]): Promise<Map<number, Acted>> {
  if (!since.length) return new Map();
  const acting = sql.join(
    ACTING_ACTIONS.map((a) => sql`${a}`),
    sql`, `,
  );
  const rows = resultRows<Acted>(
    await db.execute(sql`
      select c.folder_id as "folderId", count(*)::int as actions, count(distinct a.rule_id)::int as rules
      from jsonb_to_recordset(${JSON.stringify(since)}::jsonb) as c(folder_id int, since timestamptz)
      join rule_activity a on a.folder_id = c.folder_id and a.created_at >= c.since
      where a.state = 'done' and a.action in (${acting})
      group by c.folder_id`),
  );
  return new Map(rows.map((r) => [Number(r.folderId), { ...r, actions: Number(r.actions), rules: Number(r.rules) }]));
}

interface Held {
  folderId: number;
  count: number;
  turnOffs: number;
  budgetAdded: number | null;
  ruleId: number;
  runId: number;
}

/** Held runs nobody approved or dismissed yet, by folder (rule_runs_held_waiting_idx: a handful of rows). */
async function heldWaiting(db: Database): Promise<Map<number, Held>> {
  const rows = resultRows<Held>(
    await db.execute(sql`
      select r.folder_id as "folderId", count(*)::int as count,
        coalesce(sum(case when jsonb_typeof(rr.details->'planned') = 'array'
          then jsonb_array_length(rr.details->'planned') else 0 end), 0)::int as "turnOffs",
        nullif(sum(coalesce((rr.details->'money'->>'added')::float8, 0)), 0)::float8 as "budgetAdded",
        (array_agg(rr.rule_id order by rr.started_at, rr.id))[1] as "ruleId",
        (array_agg(rr.id order by rr.started_at, rr.id))[1] as "runId"
      from rule_runs rr
      join rules r on r.id = rr.rule_id
      where rr.outcome = 'held' and rr.decision is null and not r.is_deleted
      group by r.folder_id`),
  );
  return new Map(
    rows.map((r) => [
      Number(r.folderId),
      {
        folderId: Number(r.folderId),
        count: Number(r.count),
        turnOffs: Number(r.turnOffs),
        budgetAdded: r.budgetAdded === null ? null : Math.round(Number(r.budgetAdded) * 100) / 100,
        ruleId: Number(r.ruleId),
        runId: Number(r.runId),
      },
    ]),
  );
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** A period's totals over the days read of it; nothing read: unknown. */
function periodOf(days: (DayTotal | undefined)[]): OverviewPeriod {
  const read = days.filter((d): d is DayTotal => d !== undefined);
  if (!read.length) return { spend: null, leads: null, cpl: null, days_read: 0 };
  const spend = cents(read.reduce((sum, d) => sum + d.spend, 0));
  const leads = Math.round(read.reduce((sum, d) => sum + d.leads, 0));
  return { spend, leads, cpl: leads > 0 ? cents(spend / leads) : null, days_read: read.length };
}

export async function agencyOverview(db: Database, now: Date): Promise<AgencyOverview> {
  const live = await liveFolders(db);
  const zones = new Map<string, ZoneDays>();
  const zoneOf = (zone: string) => {
    const known = zones.get(zone);
    if (known) return known;
    const days = daysIn(zone, now);
    zones.set(zone, days);
    return days;
  };
  const accounts = new Map(live.map((f) => [f.adAccountId, f.timezone]));
  const asked = [...accounts].flatMap(([account, zone]) => zoneOf(zone).days.map((day) => ({ account, day })));
  const [totals, thresholds, acted, held, health] = await Promise.all([
    dayTotals(db, asked),
    thresholdsOf(db),
    actedToday(
      db,
      live.map((f) => ({ folder_id: f.id, since: zoneOf(f.timezone).todayStart.toISOString() })),
    ),
    heldWaiting(db),
    createHealthStore(db).folderHealth([...accounts.keys()]),
  ]);
  const totalOf = new Map(totals.map((t) => [`${t.account}|${t.day}`, t]));

  const rows = live.map((f): OverviewRow => {
    const days = zoneOf(f.timezone).days.map((day) => totalOf.get(`${f.adAccountId}|${day}`));
    const today = periodOf(days.slice(0, 1));
    const week = periodOf(days);
    const own = thresholds.get(f.id) ?? { cpl: null, noLeadsSpend: null };
    const waiting = held.get(f.id);
    const problems = health.get(f.adAccountId) ?? [];
    const needs = attentionOf({
      today,
      week,
      cplThreshold: own.cpl,
      noLeadsSpend: own.noLeadsSpend,
      held: { count: waiting?.count ?? 0, budgetAdded: waiting?.budgetAdded ?? null },
      health: problems,
    });
    return {
      folder: { id: f.id, name: f.name, client_type: f.clientType },
      ad_account: {
        ad_account_id: f.adAccountId,
        account_name: f.accountName,
        timezone_name: f.timezone,
        currency: f.currency,
      },
      today,
      week,
      read_at: days[0] ? new Date(days[0].readMs).toISOString() : null,
      cpl_threshold: own.cpl,
      cpl_over_threshold: needs.reasons.some((r) => r.kind === 'cpl_over'),
      rules_acted_today: acted.get(f.id)?.rules ?? 0,
      actions_today: acted.get(f.id)?.actions ?? 0,
      held_runs: {
        count: waiting?.count ?? 0,
        turn_offs: waiting?.turnOffs ?? 0,
        budget_added: waiting?.budgetAdded ?? null,
        oldest: waiting ? { rule_id: waiting.ruleId, run_id: waiting.runId } : null,
      },
      health: problems,
      needs_attention: needs,
    };
  });
  rows.sort(byNeed);
  return { generated_at: now.toISOString(), count: rows.length, results: rows };
}

export function createOverviewStore(db: Database) {
  return { overview: (now: Date) => agencyOverview(db, now) };
}

export type OverviewStore = ReturnType<typeof createOverviewStore>;

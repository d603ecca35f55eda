/**
 * The ads list: every ad the product has read (the metric history's names, kept from every account
 * read of the rule engine and Preview, and an account's first backfill), in a live folder of its ad
 * account, with whether it is on and why not (objectState.ts), today's numbers and what the last run
 * that judged it read. Nothing here calls the ad platform.
 *
 * The state is worked out in SQL, so the list filters and sorts on it; a page that neither filters nor
 * sorts on it is cut first and the state worked out for its rows alone.
 */
import { and, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { AdDto, StateReason } from '../../shared/ads';
import type { Database } from '../db/client';
import { folders, ruleActivity, ruleRuns, rules } from '../db/schema/index';
import { validZone } from '../judgement/scheduleSlots';
import { expandObjects } from '../judgement/runRecord';
import { loadTimeline, numbersAt } from '../history/timeline';
import { HOUR_MS } from '../history/reading';
import { commaList, idList, orderingWithId, resultRows, type PageRequest, type Slice } from '../http/pagination';
import { containsPattern } from '../http/search';
import { adReason, campaignOfAd, campaignReason, lastSwitchOf, liveReadingOf } from './objectState';
import type { AdListQuery } from './schemas';
import { entriesById, platformStatusOf, stateDto } from './states';

/** Run kinds that judge objects (an alert judges nothing). */
const RUN_KINDS = ['run', 'manual', 'approval'];
/** Days before today looked back for the reading today's numbers start from. */
const TODAY_LOOK_BACK_DAYS = 7;

const id = (name: string) => sql.identifier(name);
/** Values as a comma-separated list of parameters. */
const values = (list: readonly (string | number)[]) =>
  sql.join(
    list.map((v) => sql`${v}`),
    sql`, `,
  );

const ORDERING: Record<string, SQL> = {
  name: sql`${id('ad_name')}`,
  campaign: sql`${id('campaign_name')}`,
  folder: sql`${id('folder_name')}`,
  status: sql`(case ${id('reason')} when 'rule' then 0 when 'meta' then 1 when 'person' then 2
    when 'campaign' then 3 when 'platform' then 4 when 'unknown' then 5 else 6 end)`,
  id: sql`${id('ad_id')}`,
  ad_id: sql`${id('ad_id')}`,
};

interface AdRow {
  ad_id: string;
  ad_name: string;
  campaign_id: string;
  campaign_name: string;
  ad_account_id: string;
  account_name: string;
  currency: string;
  timezone_name: string;
  folder_id: number;
  folder_name: string;
  reason: StateReason;
  ad_entry: number | null;
  camp_reason: string;
  camp_entry: number | null;
  camp_known: boolean;
  camp_status: string | null;
  camp_effective: string | null;
  read_at_ms: number | null;
  total: number | string;
}

/** The candidates: each ad of the names with its ad account and the first live folder of that account. */
function candidates(filters: AdListQuery): SQL {
  const folderIds = filters.folder_id === undefined ? undefined : idList(filters.folder_id).concat(-1);
  const conditions: SQL[] = [];
  if (folderIds)
    conditions.push(
      sql`n.ad_account_id in (select fi.ad_account_id from ${folders} fi where fi.id in (${values(folderIds)}))`,
    );
  if (filters.campaign_id !== undefined)
    conditions.push(sql`n.campaign_id in (${values(commaList(filters.campaign_id).concat(''))})`);
  if (filters.ad_id !== undefined) conditions.push(sql`n.ad_id in (${values(commaList(filters.ad_id).concat(''))})`);
  if (filters.run_id !== undefined)
    conditions.push(sql`n.ad_id in (select o->>1 from ${ruleRuns} rr
      cross join lateral jsonb_array_elements(coalesce(rr.details->'objects', '[]'::jsonb)) as o
      where rr.id in (${values(idList(filters.run_id).concat(-1))}) and o->>0 = 'a')`);
  const search = filters.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(sql`(n.ad_name ilike ${pattern} or n.ad_id ilike ${pattern})`);
  }
  const onlyFolders = folderIds ? sql`and fo.id in (${values(folderIds)})` : sql``;
  return sql`select n.ad_id, n.ad_name, n.campaign_id, n.campaign_name, n.ad_account_id,
      (n.read_at at time zone 'UTC')::date as read_day,
      a.account_name, a.currency, a.timezone_name, f.id as folder_id, f.name as folder_name
    from ad_history_names n
    join meta_ad_accounts a on a.ad_account_id = n.ad_account_id
    join lateral (select fo.id, fo.name from ${folders} fo
      where fo.ad_account_id = n.ad_account_id and not fo.is_deleted ${onlyFolders}
      order by fo.id limit 1) as f on true
    ${conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}`;
}

/** The rows of `rows` (a subquery of candidates' columns) with their state (objectState.ts). */
function withState(rows: SQL): SQL {
  return sql`select b.*, st.reason, cr.camp_reason,
      case when st.reason in ('rule', 'meta') then asw.entry_id end as ad_entry,
      asw.rule_id as ad_rule_id,
      case when cr.camp_reason in ('rule', 'meta') then csw.entry_id end as camp_entry,
      c.campaign_id is not null as camp_known, c.status as camp_status, c.effective_status as camp_effective,
      (extract(epoch from r.at) * 1000)::float8 as read_at_ms
    from (${rows}) as b
    left join ad_metric_history h on h.ad_account_id = b.ad_account_id and h.day = b.read_day and h.ad_id = b.ad_id
    left join lateral ${liveReadingOf('h')} as r on true
    left join lateral ${lastSwitchOf(sql`b.ad_id`, true)} as asw on true
    left join campaigns c on c.campaign_id = ${campaignOfAd(sql`b.campaign_id`)}
    left join lateral ${lastSwitchOf(sql`b.campaign_id`, false)} as csw on true
    cross join lateral (select ${campaignReason('c', 'csw', sql`r.campaign_on`)} as camp_reason) as cr
    cross join lateral (select ${adReason('r', 'asw', sql`cr.camp_reason`)} as reason) as st`;
}

/** Conditions on the state: status, reason, and the rules that turned the ads off. */
function stateConditions(filters: AdListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (filters.status === 'on') conditions.push(sql`s.reason = 'on'`);
  if (filters.status === 'off') conditions.push(sql`s.reason not in ('on', 'unknown')`);
  const reasons = commaList(filters.reason);
  if (reasons.length) conditions.push(sql`s.reason in (${values(reasons)})`);
  if (filters.rule_id !== undefined)
    conditions.push(sql`s.reason = 'rule' and s.ad_rule_id in (${values(idList(filters.rule_id).concat(-1))})`);
  return conditions;
}

const needsState = (filters: AdListQuery) =>
  stateConditions(filters).length > 0 || commaList(filters.ordering).some((key) => key.replace(/^-/, '') === 'status');

async function pageRows(db: Database, paging: PageRequest, filters: AdListQuery): Promise<Slice<AdRow>> {
  const order = sql.join(orderingWithId(filters.ordering, ORDERING, [ORDERING.name!], ORDERING.id!), sql`, `);
  const { limit, offset } = paging;
  let statement: SQL;
  let counting: SQL;
  if (needsState(filters)) {
    const conditions = stateConditions(filters);
    const matching = sql`select s.* from (${withState(candidates(filters))}) as s
      ${conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}`;
    statement = sql`select m.*, count(*) over () as total from (${matching}) as m
      order by ${order} limit ${limit} offset ${offset}`;
    counting = sql`select count(*)::int as n from (${matching}) as m`;
  } else {
    const page = sql`select b.*, count(*) over () as total from (${candidates(filters)}) as b
      order by ${order} limit ${limit} offset ${offset}`;
    statement = sql`select * from (${withState(page)}) as p order by ${order}`;
    counting = sql`select count(*)::int as n from (${candidates(filters)}) as b`;
  }
  const rows = resultRows<AdRow>(await db.execute(statement));
  if (rows.length || offset === 0) return { count: rows.length ? Number(rows[0]!.total) : 0, results: rows };
  const [counted] = resultRows<{ n: number }>(await db.execute(counting));
  return { count: counted?.n ?? 0, results: [] };
}

type Numbers = NonNullable<AdDto['today']>;

const numbers = (spendCents: number, leads: number) => {
  const spend = Math.round(spendCents) / 100;
  return { spend, leads, cpl: leads > 0 ? Math.round((spend / leads) * 100) / 100 : null };
};

/**
 * Today's numbers of each ad, in its account's time zone: its latest reading less its latest before
 * midnight (an ad not read before today counts from nothing); none when it was not read today.
 */
async function todayOf(db: Database, rows: AdRow[], now: Date): Promise<Map<string, Numbers>> {
  const today = new Map<string, Numbers>();
  const byAccount = new Map<string, AdRow[]>();
  for (const row of rows) byAccount.set(row.ad_account_id, [...(byAccount.get(row.ad_account_id) ?? []), row]);
  await Promise.all(
    [...byAccount].map(async ([adAccountId, accountRows]) => {
      const zone = validZone(accountRows[0]!.timezone_name);
      const midnight = DateTime.fromJSDate(now, { zone }).startOf('day').toMillis();
      const timeline = await loadTimeline(
        db,
        adAccountId,
        midnight,
        now.getTime(),
        TODAY_LOOK_BACK_DAYS,
        { adIds: accountRows.map((r) => r.ad_id), campaignIds: [] },
        ['spendCents', 'leads'],
      );
      const hourAt = (ms: number) => Math.min(Math.floor((ms - timeline.startMs) / HOUR_MS), timeline.hours - 1);
      const [nowHour, beforeMidnight] = [hourAt(now.getTime()), hourAt(midnight - 1)];
      for (const series of timeline.ads) {
        const end = series.latest[nowHour]!;
        const base = beforeMidnight >= 0 ? series.latest[beforeMidnight]! : -1;
        if (end < 0 || end === base) continue;
        const endNumbers = numbersAt(series, end);
        const baseNumbers = base >= 0 ? numbersAt(series, base) : null;
        const grown = (endValue: number | null, baseValue: number | null | undefined) =>
          Math.max(0, (endValue ?? 0) - (baseValue ?? 0));
        today.set(series.adId, {
          ...numbers(
            grown(endNumbers.spendCents, baseNumbers?.spendCents),
            grown(endNumbers.leads, baseNumbers?.leads),
          ),
          as_of: new Date(timeline.startMs + end * HOUR_MS).toISOString(),
        });
      }
    }),
  );
  return today;
}

/**
 * What the last run that judged each ad read: the run that turned it off, else the latest run of a
 * rule of its folders that looked at it with metrics.
 */
async function lastJudgedOf(
  db: Database,
  rows: AdRow[],
  offRuns: Map<string, number>,
): Promise<Map<string, NonNullable<AdDto['last_judged']>>> {
  const accounts = [...new Set(rows.map((r) => r.ad_account_id))];
  const latestOfRules = resultRows<{ id: number }>(
    await db.execute(sql`select distinct on (rr.rule_id) rr.id from ${ruleRuns} rr
      join ${rules} ru on ru.id = rr.rule_id and not ru.is_deleted
      join ${folders} fo on fo.id = ru.folder_id and not fo.is_deleted
      where fo.ad_account_id in (${values(accounts)})
        and rr.kind in (${values(RUN_KINDS)}) and rr.details is not null
      order by rr.rule_id, rr.started_at desc`),
  ).map((r) => Number(r.id));
  const runIds = [...new Set([...offRuns.values(), ...latestOfRules])];
  if (!runIds.length) return new Map();
  const runs = await db
    .select({
      id: ruleRuns.id,
      ruleId: ruleRuns.ruleId,
      ruleName: rules.name,
      startedAt: ruleRuns.startedAt,
      details: ruleRuns.details,
    })
    .from(ruleRuns)
    .innerJoin(rules, eq(rules.id, ruleRuns.ruleId))
    .where(and(inArray(ruleRuns.id, runIds), isNotNull(ruleRuns.details)))
    .orderBy(desc(ruleRuns.startedAt));
  const wanted = new Set(rows.map((r) => r.ad_id));
  const judged = new Map<string, Map<number, NonNullable<AdDto['last_judged']>>>();
  for (const run of runs) {
    for (const object of expandObjects(run.details)) {
      if (object.type !== 'ad' || !wanted.has(object.id) || !object.metrics) continue;
      const byRun = judged.get(object.id) ?? new Map();
      judged.set(object.id, byRun);
      byRun.set(run.id, {
        ...numbers(object.metrics.spend * 100, object.metrics.leads),
        run_id: run.id,
        rule: { id: run.ruleId, name: run.ruleName },
        at: new Date(run.startedAt).toISOString(),
      });
    }
  }
  const result = new Map<string, NonNullable<AdDto['last_judged']>>();
  for (const [adId, byRun] of judged) {
    const offRun = offRuns.get(adId);
    // The runs are newest first, and so is each ad's map.
    result.set(adId, (offRun !== undefined ? byRun.get(offRun) : undefined) ?? byRun.values().next().value!);
  }
  return result;
}

async function listAds(db: Database, paging: PageRequest, filters: AdListQuery, now: Date): Promise<Slice<AdDto>> {
  const { count, results: rows } = await pageRows(db, paging, filters);
  if (!rows.length) return { count, results: [] };
  const entries = await entriesById(
    db,
    rows.flatMap((r) => [r.ad_entry, r.camp_entry]).filter((e): e is number => e !== null),
  );
  const offRuns = new Map(
    rows.flatMap((r) => {
      const runId = r.reason === 'rule' && r.ad_entry !== null ? entries.get(r.ad_entry)?.runId : null;
      return runId ? [[r.ad_id, runId] as const] : [];
    }),
  );
  const [today, judged] = await Promise.all([todayOf(db, rows, now), lastJudgedOf(db, rows, offRuns)]);
  return {
    count,
    results: rows.map((r) => ({
      id: r.ad_id,
      ad_id: r.ad_id,
      name: r.ad_name,
      campaign: {
        id: r.campaign_id,
        name: r.campaign_name,
        state:
          r.camp_known || r.camp_reason !== 'on'
            ? stateDto(
                r.camp_reason as StateReason,
                r.camp_entry === null ? undefined : entries.get(r.camp_entry),
                platformStatusOf(r.camp_status, r.camp_effective),
              )
            : null,
      },
      folder: { id: Number(r.folder_id), name: r.folder_name },
      ad_account: { id: r.ad_account_id, name: r.account_name, currency: r.currency, timezone_name: r.timezone_name },
      state: stateDto(r.reason, r.ad_entry === null ? undefined : entries.get(r.ad_entry)),
      read_at: r.read_at_ms === null ? null : new Date(Number(r.read_at_ms)).toISOString(),
      today: today.get(r.ad_id) ?? null,
      last_judged: judged.get(r.ad_id) ?? null,
    })),
  };
}

/** A turn-off an ad is off for: its rule activity entry and the entry's folder (null once deleted for good). */
export interface RuleTurnOff {
  entryId: number;
  folderId: number | null;
}

/** Of these ads, the turn-off each is off for, when a rule turned it off. */
async function ruleTurnOffsOf(db: Database, adIds: string[]): Promise<Map<string, RuleTurnOff>> {
  const { results } = await pageRows(db, { limit: adIds.length, offset: 0 }, {
    ad_id: adIds.join(','),
    reason: 'rule',
  } as AdListQuery);
  const entryIds = results.flatMap((r) => (r.ad_entry === null ? [] : [Number(r.ad_entry)]));
  if (!entryIds.length) return new Map();
  const entries = await db
    .select({ id: ruleActivity.id, adId: ruleActivity.adId, folderId: ruleActivity.folderId })
    .from(ruleActivity)
    .where(inArray(ruleActivity.id, entryIds));
  return new Map(entries.map((e) => [e.adId!, { entryId: e.id, folderId: e.folderId }]));
}

/** The ads list over one database, as its routes read it; `now`: the clock each ad's figures of today are read by. */
export function createAdStore(db: Database, { now = () => new Date() }: { now?: () => Date } = {}) {
  return {
    list: (paging: PageRequest, filters: AdListQuery) => listAds(db, paging, filters, now()),
    ruleTurnOffsOf: (adIds: string[]) => ruleTurnOffsOf(db, adIds),
  };
}

export type AdStore = ReturnType<typeof createAdStore>;

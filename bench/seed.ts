/**
 * Fills an empty database to a scale with set-based SQL (INSERT … SELECT generate_series), which
 * takes seconds where row-by-row inserts (scripts/seed.ts) would take minutes at 100,000 campaigns.
 * The shapes follow the product: folders named after client firms, ~5% trashed; 10 rules a folder
 * with ~5% of the live folders' rules trashed; audit-log and rule-log entries per rule; campaigns
 * named the agency's way with parsed topic / webinar / event date and lifetime metrics.
 * Rule filter/task items are not seeded: no list call reads them.
 */
import type { DbHandle } from '../server/db/client';
import { CAMPAIGN_NAME_OPTIONS, CLIENT_TYPES, PLANS, TOPICS } from '../src/domain/constants';
import { defaultAlertDay, defaultWeek } from '../src/domain/schedule';
import type { Scale } from './options';

export const FIRMS = [
  'Harbor',
  'Summit',
  'Oak',
  'Granite',
  'Beacon',
  'Cedar',
  'Liberty',
  'Pioneer',
  'Keystone',
  'Meridian',
];
const KINDS = ['Wealth', 'Advisors', 'Financial', 'Retirement Partners', 'Planning Group'];
const ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Phoenix'];
const AUDIT_ACTIONS = [
  'Rule updated',
  'Rule updated',
  'Rule updated',
  'Rule created',
  'Folder updated',
  'Rule moved to trash',
  'Rule restored',
];

/** A SQL array literal of our own constants (no user input reaches this). */
const textArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;

/** The unique name of folder `n` (1-based): a search for it matches exactly one folder at any scale. */
export const folderName = (n: number) =>
  `${FIRMS[n % FIRMS.length]} ${KINDS[n % KINDS.length]} client ${String(n).padStart(6, '0')}`;

export interface SeedCounts {
  accounts: number;
  folders: number;
  rules: number;
  auditLog: number;
  ruleActivity: number;
  campaigns: number;
  seconds: number;
}

export async function seedScale(dbh: DbHandle, scale: Scale): Promise<SeedCounts> {
  const started = performance.now();
  const accounts = Math.max(5, Math.ceil(scale.folders / 20));
  const run = (text: string, values?: unknown[]) => dbh.sql.query(text, values);

  await run(`
    insert into meta_ad_accounts (ad_account_id, account_name, timezone_name)
    select 'act_9' || lpad(g::text, 9, '0'),
           (${textArray(FIRMS)})[1 + g % ${FIRMS.length}] || ' ' || (${textArray(KINDS)})[1 + (g / ${FIRMS.length}) % ${KINDS.length}] || ' ' || g,
           (${textArray(ZONES)})[1 + g % ${ZONES.length}]
    from generate_series(1, ${accounts}) g`);

  await run(`
    insert into folders (name, client_type, plan, ad_account_id, is_deleted, deleted_at, created_at, updated_at)
    select (${textArray(FIRMS)})[1 + g % ${FIRMS.length}] || ' ' || (${textArray(KINDS)})[1 + g % ${KINDS.length}] || ' client ' || lpad(g::text, 6, '0'),
           (${textArray(CLIENT_TYPES)})[1 + g % ${CLIENT_TYPES.length}],
           (${textArray(PLANS.map((p) => p.value))})[1 + g % ${PLANS.length}],
           'act_9' || lpad((1 + g % ${accounts})::text, 9, '0'),
           g % 20 = 0,
           case when g % 20 = 0 then now() - g * interval '1 minute' end,
           now() - (${scale.folders} - g) * interval '1 hour',
           now() - (${scale.folders} - g) * interval '1 hour'
    from generate_series(1, ${scale.folders}) g
    order by g`);

  await run(
    `
    insert into rules (folder_id, name, is_active, is_deleted, deleted_at, schedule, timezone, alert_schedule, created_at, updated_at)
    select f.id,
           (${textArray(CAMPAIGN_NAME_OPTIONS)})[1 + (f.id + r) % ${CAMPAIGN_NAME_OPTIONS.length}] || ': Pause ad CPL > $' || (40 + r * 5),
           (f.id + r) % 3 = 0,
           f.is_deleted or (f.id * 10 + r) % 20 = 3,
           case when f.is_deleted then f.deleted_at when (f.id * 10 + r) % 20 = 3 then now() - (f.id * 10 + r) * interval '1 second' end,
           $1::jsonb, (${textArray(ZONES)})[1 + (f.id + r) % ${ZONES.length}], $2::jsonb,
           f.created_at, f.created_at
    from folders f cross join generate_series(1, ${scale.rulesPerFolder}) r
    order by f.id, r`,
    [JSON.stringify(defaultWeek()), JSON.stringify(defaultAlertDay())],
  );

  await run(`
    insert into audit_log (timestamp, actor, folder_id, folder_name, meta_ad_account_name, rule_id, rule_name, action, changes_text)
    select now() - ((r.id * ${scale.logPerRule} + g) * interval '37 seconds'),
           'Bench User ' || (1 + (r.id + g) % 7),
           f.id, f.name, a.account_name, r.id, r.name,
           (${textArray(AUDIT_ACTIONS)})[1 + (r.id + g) % ${AUDIT_ACTIONS.length}],
           'CPL Greater Than: $' || (30 + g) || ' → $' || (35 + g) || '; Schedule: added Monday ' || (g % 12 + 1) || ':00 AM'
    from rules r
    join folders f on f.id = r.folder_id
    join meta_ad_accounts a on a.ad_account_id = f.ad_account_id
    cross join generate_series(1, ${scale.logPerRule}) g`);

  await run(`
    insert into rule_activity (created_at, rule_id, folder_id, action, ad_id, object_type, reason, state, slot)
    select now() - ((r.id * ${scale.activityPerRule} + g) * interval '53 seconds'),
           r.id, r.folder_id,
           case when g % 10 = 0 then 'alert_sent' else 'turn_off_ad' end,
           (238500000000000000 + r.id::bigint * 100 + g)::text,
           'ad',
           json_build_object('metric', 'CPL', 'value', '$' || (40 + g), 'threshold', '$40.00'),
           'done',
           date_trunc('hour', now()) - ((r.id + g) % 500) * interval '1 hour'
    from rules r cross join generate_series(1, ${scale.activityPerRule}) g`);

  const topics = TOPICS.map((t) => t.code);
  await run(`
    insert into campaigns (campaign_id, ad_account_id, campaign_name, status, effective_status, topic, is_webinar, event_date, event_time,
                           spend, leads, impressions, clicks, link_clicks, cpl, ctr, cpc, end_date, updated_at)
    select 120200000000000000 + g,
           'act_9' || lpad((1 + g % ${accounts})::text, 9, '0'),
           case when g % 10 = 0 then 'Retargeting campaign ' || g
                else (${textArray(CLIENT_TYPES)})[1 + g % 2] || ' - ' || (${textArray(topics)})[1 + g % ${topics.length}]
                     || case when g % 3 = 0 then '-S' else '-W' end || ' - '
                     || to_char(date '2026-01-01' + (g % 365), 'MM/DD/YYYY') || ' ' || (1 + g % 12) || ':00 PM - ' || g end,
           case when g % 4 = 0 then 'PAUSED' else 'ACTIVE' end,
           case when g % 4 = 0 then 'PAUSED' else 'ACTIVE' end,
           case when g % 10 = 0 then null else (${textArray(topics)})[1 + g % ${topics.length}] end,
           case when g % 10 = 0 then null else g % 3 <> 0 end,
           case when g % 10 = 0 then null else date '2026-01-01' + (g % 365) end,
           case when g % 10 = 0 then null else lpad((12 + g % 12)::text, 2, '0') || ':00' end,
           round(((g * 7919) % 200000 / 100.0)::numeric, 2),
           (g * 31) % 60,
           (g * 131) % 90000, (g * 17) % 3000, (g * 13) % 2500,
           case when (g * 31) % 60 = 0 then null else round(((g * 7919) % 200000 / 100.0 / ((g * 31) % 60))::numeric, 2) end,
           case when (g * 131) % 90000 = 0 then null else round(((g * 17) % 3000 * 100.0 / ((g * 131) % 90000))::numeric, 4) end,
           case when (g * 13) % 2500 = 0 then null else round(((g * 7919) % 200000 / 100.0 / ((g * 13) % 2500))::numeric, 4) end,
           timestamptz '2026-01-01' + (g % 400) * interval '1 day',
           now() - (g % 1000) * interval '1 minute'
    from generate_series(1, ${scale.campaigns}) g`);

  await dbh.sql.exec('vacuum analyze');
  // Flush the bulk load now rather than in a checkpoint during the timed calls (needs superuser; optional).
  if (dbh.kind === 'postgres') await dbh.sql.exec('checkpoint').catch(() => undefined);
  const counted = async (table: string) => Number((await run(`select count(*)::int as n from ${table}`)).rows[0]!.n);
  return {
    accounts,
    folders: await counted('folders'),
    rules: await counted('rules'),
    auditLog: await counted('audit_log'),
    ruleActivity: await counted('rule_activity'),
    campaigns: await counted('campaigns'),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Fills a database with set-based SQL (INSERT … SELECT generate_series): seconds where row-by-row
 * inserts would take minutes at a million log entries. Used by `npm run seed` and both benches.
 * The shapes follow the product: client folders (1 in 20 trashed) with one ad account each, rules
 * (1 in 20 of a live folder's trashed), a team, campaigns named the agency's way (docs/contract.md#constants, parsed
 * into topic / webinar / event date and time as the sync does), audit-log entries with the texts the
 * server writes, and rule-log entries with readable reasons, spread over three years.
 * Each rule gets the default filter and task items, so it opens in the rule editor as a new one would.
 * Appending is safe: numbering continues after what is there, so names and ids stay unique.
 */
import type { DbHandle } from '../server/db/client';
import { CAMPAIGN_NAME_OPTIONS, CLIENT_TYPES, PLANS, TOPICS } from '../shared/constants';
import { defaultFilters, defaultTasks, FILTER_NAMES, TASK_NAMES } from '../shared/rules';
import { defaultAlertDay, defaultWeek } from '../shared/schedule';
import type { Scale } from './scale';

const SURNAMES = [
  'Anderson',
  'Bennett',
  'Carter',
  'Dawson',
  'Ellis',
  'Foster',
  'Garcia',
  'Hayes',
  'Iverson',
  'Jensen',
  'Keller',
  'Lawson',
  'Morgan',
  'Nolan',
  'Ortiz',
  'Parker',
  'Quinn',
  'Reyes',
  'Sullivan',
  'Turner',
  'Underwood',
  'Vance',
  'Walsh',
  'Young',
  'Zimmerman',
  'Brooks',
  'Coleman',
  'Delgado',
  'Fischer',
  'Grant',
];
const KINDS = [
  'Wealth Management',
  'Financial Group',
  'Retirement Partners',
  'Advisors',
  'Planning Group',
  'Capital',
  'Wealth Advisors',
  'Financial Services',
];
const CITIES = [
  'Austin',
  'Tampa',
  'Denver',
  'Phoenix',
  'Raleigh',
  'Boise',
  'Omaha',
  'Tulsa',
  'Naples',
  'Scottsdale',
  'Charlotte',
  'Nashville',
  'Sarasota',
  'Columbus',
  'Dallas',
  'Houston',
  'Richmond',
  'Savannah',
  'Spokane',
  'Madison',
  'Knoxville',
  'Reno',
  'Tucson',
  'Orlando',
  'Plano',
];
/** Names unique up to this many folders; further folders get a " 2", " 3" … suffix. */
const NAME_COMBINATIONS = SURNAMES.length * KINDS.length * CITIES.length;
const FIRST_NAMES = ['Maria', 'James', 'Priya', 'Daniel', 'Sofia', 'Kevin', 'Aisha', 'Tom', 'Elena', 'Marcus', 'Grace'];
const LAST_NAMES = ['Lopez', 'Chen', 'Patel', 'Novak', 'Rossi', 'Brown', 'Okafor', 'Meyer', 'Kim', 'Silva', 'Ward'];
const ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Phoenix'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const AD_CREATIVES = ['Video 15s', 'Carousel', 'Single image', 'Testimonial video', 'Lead form A', 'Lead form B'];
/** History covered by the log entries. */
const HISTORY_SECONDS = 3 * 365 * 24 * 60 * 60;
/** Meta ad account ids of seeded folders: act_ followed by this plus the folder's number. */
const ACCOUNT_BASE = 7_100_000_000_000;
const CAMPAIGN_BASE = 120_200_000_000_000_000n;

/** A SQL array literal of our own constants (no user input reaches this). */
const textArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;
/** `values[n mod len]` in SQL, `n` an integer expression. */
const pick = (values: readonly string[], n: string) => `(${textArray(values)})[1 + (${n}) % ${values.length}]`;

/** The unique name of folder `n` (1-based), e.g. "Lawson Advisors (Tampa)": a search for it finds that folder alone. */
export function folderName(n: number): string {
  const base = `${SURNAMES[n % SURNAMES.length]} ${KINDS[Math.floor(n / SURNAMES.length) % KINDS.length]} (${CITIES[Math.floor(n / (SURNAMES.length * KINDS.length)) % CITIES.length]})`;
  return n >= NAME_COMBINATIONS ? `${base} ${Math.floor(n / NAME_COMBINATIONS) + 1}` : base;
}

/** folderName in SQL; the two must agree (the bench searches by name). */
const folderNameSql = (n: string) =>
  `${pick(SURNAMES, n)} || ' ' || ${pick(KINDS, `(${n}) / ${SURNAMES.length}`)} || ' (' || ${pick(CITIES, `(${n}) / ${SURNAMES.length * KINDS.length}`)} || ')'` +
  ` || case when (${n}) >= ${NAME_COMBINATIONS} then ' ' || ((${n}) / ${NAME_COMBINATIONS} + 1) else '' end`;

/** Folder `n` is in the trash when n % 20 = 0. */
export const isTrashedFolder = (n: number) => n % 20 === 0;

/** The ad account id of folder `n`. */
export const adAccountId = (n: number) => `act_${ACCOUNT_BASE + n}`;

export interface SeedSizes {
  folders: number;
  rulesPerFolder: number;
  campaigns: number;
  auditLogEntries: number;
  ruleLogEntries: number;
  /** Team members besides whoever is there (the admin). */
  teamMembers: number;
}

export interface SeedCounts {
  accounts: number;
  folders: number;
  rules: number;
  auditLog: number;
  ruleActivity: number;
  campaigns: number;
  users: number;
  seconds: number;
  /** Seconds per step, for the seed command's summary. */
  steps: Record<string, number>;
}

/** What the database already holds; numbering of new rows continues after it. */
export async function existingRows(dbh: DbHandle): Promise<Record<string, number>> {
  const tables = ['folders', 'rules', 'meta_ad_accounts', 'campaigns', 'audit_log', 'rule_activity', 'users'];
  const counts: Record<string, number> = {};
  for (const table of tables)
    counts[table] = Number((await dbh.sql.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n);
  return counts;
}

/**
 * Runs a bulk insert into `table` with its plain (non-unique) indexes dropped, then builds them
 * again: building an index once over a million rows is many times faster than updating it per row,
 * above all the trigram (GIN) indexes behind the searches. Only when the insert at least doubles
 * the table, so appending a little to a big database leaves its indexes alone.
 */
async function withIndexesRebuilt(dbh: DbHandle, table: string, adding: number, insert: () => Promise<unknown>) {
  const present = Number((await dbh.sql.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]!.n);
  if (adding < present) return insert();
  const { rows } = await dbh.sql.query<{ name: string; definition: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid = $1::regclass and not i.indisunique and not i.indisprimary`,
    [table],
  );
  if (rows.length) await dbh.sql.exec(rows.map((r) => `drop index if exists "${r.name}";`).join('\n'));
  try {
    await insert();
  } finally {
    // One session for all of them, with room to sort in memory.
    if (rows.length)
      await dbh.sql.exec(`set maintenance_work_mem = '256MB';\n${rows.map((r) => `${r.definition};`).join('\n')}`);
  }
}

export async function seedData(
  dbh: DbHandle,
  sizes: SeedSizes,
  progress: (line: string) => void = () => undefined,
): Promise<SeedCounts> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  const run = (text: string, values?: unknown[]) => dbh.sql.query(text, values);
  const scalar = async (text: string) => Number((await run(text)).rows[0]!.n ?? 0);
  const step = async (name: string, work: () => Promise<unknown>, table?: { name: string; adding: number }) => {
    const t = performance.now();
    await (table ? withIndexesRebuilt(dbh, table.name, table.adding, work) : work());
    steps[name] = (performance.now() - t) / 1000;
    progress(`  ${name}: ${steps[name]!.toFixed(1)} s`);
  };

  // New rows continue the numbering: folder n, ad account act_<base+n>, campaign <base+m>.
  const folderStart = await scalar('select coalesce(max(id), 0)::int as n from folders');
  const ruleStart = await scalar('select coalesce(max(id), 0)::int as n from rules');
  const userStart = await scalar('select coalesce(max(id), 0)::int as n from users');
  const campaignStart = await scalar(
    `select greatest(coalesce(max(campaign_id), 0) - ${CAMPAIGN_BASE}, 0)::bigint as n from campaigns`,
  );
  const n = `(${folderStart} + g)`;

  await step('ad accounts', () =>
    run(`
      insert into meta_ad_accounts (ad_account_id, account_name, timezone_name)
      select 'act_' || (${ACCOUNT_BASE} + ${n}),
             ${pick(SURNAMES, n)} || ' ' || ${pick(CITIES, `${n} / ${SURNAMES.length * KINDS.length}`)} || ' - '
               || ${pick(CLIENT_TYPES, n)} || ' Leads ' || ${n},
             ${pick(ZONES, n)}
      from generate_series(1, ${sizes.folders}) g
      on conflict do nothing`),
  );

  await step('folders', () =>
    run(`
      insert into folders (name, client_type, plan, ad_account_id, is_deleted, deleted_at, created_at, updated_at)
      select ${folderNameSql(n)},
             ${pick(CLIENT_TYPES, n)},
             ${pick(
               PLANS.map((p) => p.value),
               n,
             )},
             'act_' || (${ACCOUNT_BASE} + ${n}),
             ${n} % 20 = 0,
             case when ${n} % 20 = 0 then now() - g * interval '1 minute' end,
             now() - (${sizes.folders} - g) * interval '1 hour',
             now() - (${sizes.folders} - g) * interval '1 hour'
      from generate_series(1, ${sizes.folders}) g
      order by g`),
  );

  await step('rules', () =>
    run(
      `
      insert into rules (folder_id, name, is_active, is_deleted, deleted_at, schedule, timezone, alert_schedule, created_at, updated_at)
      select f.id,
             ${pick(CAMPAIGN_NAME_OPTIONS, 'f.id + r')} || ': Pause ad CPL > $' || (40 + r * 5),
             (f.id + r) % 3 = 0,
             f.is_deleted or (f.id * 10 + r) % 20 = 3,
             case when f.is_deleted then f.deleted_at when (f.id * 10 + r) % 20 = 3 then now() - (f.id * 10 + r) * interval '1 second' end,
             $1::jsonb, ${pick(ZONES, 'f.id + r')}, $2::jsonb,
             f.created_at, f.created_at
      from folders f cross join generate_series(1, ${sizes.rulesPerFolder}) r
      where f.id > ${folderStart}
      order by f.id, r`,
      [JSON.stringify(defaultWeek()), JSON.stringify(defaultAlertDay())],
    ),
  );

  // The items a new rule starts with (shared/rules.ts), as one JSON document joined to every new rule.
  const items = [
    ...defaultFilters().map((item) => ({ ...item, position: FILTER_NAMES.indexOf(item.name) })),
    ...defaultTasks().map((item) => ({ ...item, position: TASK_NAMES.indexOf(item.name) })),
  ];
  await step('rule items', () =>
    run(
      `
      insert into rule_items (rule_id, type, name, values, is_active, position)
      select r.id, i.type, i.name, i.values, i.is_active, i.position
      from rules r cross join jsonb_to_recordset($1::jsonb) as i(type text, name text, values jsonb, is_active boolean, position int)
      where r.id > ${ruleStart}`,
      [JSON.stringify(items)],
    ),
  );

  await step('team', () =>
    run(`
      insert into users (email, password_hash, first_name, last_name, is_staff, date_joined, last_login)
      select lower(${pick(FIRST_NAMES, 'u')} || '.' || ${pick(LAST_NAMES, `u / ${FIRST_NAMES.length}`)}) || '.' || u || '@agency.example',
             '!unusable', ${pick(FIRST_NAMES, 'u')}, ${pick(LAST_NAMES, `u / ${FIRST_NAMES.length}`)},
             u % 5 = 0, now() - u * interval '9 days', now() - u * interval '3 hours'
      from generate_series(${userStart + 1}, ${userStart + sizes.teamMembers}) u
      on conflict do nothing`),
  );

  // The seeded rules with their folder and account, numbered 0… for spreading entries over them.
  const newRules = `
    select r.id, r.name, r.folder_id, f.name as folder_name, f.client_type, a.account_name, f.id % 97 as mix,
           (row_number() over (order by r.id) - 1)::int as k
    from rules r join folders f on f.id = r.folder_id join meta_ad_accounts a on a.ad_account_id = f.ad_account_id
    where r.id > ${ruleStart}`;
  const ruleCount = await scalar(`select count(*)::int as n from rules where id > ${ruleStart}`);
  const actors = FIRST_NAMES.flatMap((first, i) => [`${first} ${LAST_NAMES[i]}`]);
  const topics = TOPICS.map((t) => t.code);
  const eventSuffix = `' - ' || ${pick(topics, 'g / 7')} || case when g % 3 = 0 then '-S' else '-W' end || ' - ' || to_char(date '2024-01-01' + (g % 1000), 'MM/DD/YYYY')`;

  if (ruleCount && sizes.auditLogEntries)
    await step(
      'audit log',
      () =>
        run(`
        with r as (${newRules})
        insert into audit_log (timestamp, actor, folder_id, folder_name, meta_ad_account_name, rule_id, rule_name, action, changes_text)
        select now() - (${sizes.auditLogEntries} - g) * ${HISTORY_SECONDS / sizes.auditLogEntries} * interval '1 second',
               case when g % 41 = 0 then 'System' else ${pick(actors, 'g / 13')} end,
               r.folder_id, r.folder_name, r.account_name,
               case when m % 10 = 9 then null else r.id end,
               case when m % 10 = 9 then null else r.name end,
               case m % 10 when 0 then 'Rule created' when 7 then 'Rule moved to trash' when 8 then 'Rule restored'
                           when 9 then 'Folder updated' else 'Rule updated' end,
               case m % 10
                 when 0 then 'Name: ' || r.name || '; Active: off; Schedule: ' || ${pick(DAYS, 'm')} || ' 7:00 AM'
                 when 1 then 'Active: off → on'
                 when 2 then 'Active: on → off'
                 when 3 then 'Turn off the ad if CPL is above: $' || (30 + m % 40) || '.00 → $' || (35 + m % 45) || '.00'
                 when 4 then 'Schedule: ' || ${pick(DAYS, 'm')} || ' ' || (1 + m % 12) || ':00 ' || case when m % 2 = 0 then 'AM' else 'PM' end || ' added'
                 when 5 then 'Campaign name contains: ' || ${pick(CAMPAIGN_NAME_OPTIONS, 'm / 10')} || ' → ' || ${pick(CAMPAIGN_NAME_OPTIONS, 'm / 3')}
                 when 6 then 'Turn off the ad if spend is above a value and leads are 0: $' || (50 + m % 50) || '.00 → $' || (60 + m % 70) || '.00'
                 when 9 then 'Plan: ' || ${pick(
                   PLANS.map((p) => p.label),
                   'm / 10',
                 )} || ' → ' || ${pick(
                   PLANS.map((p) => p.label),
                   'm / 10 + 1',
                 )}
                 else ''
               end
        from generate_series(1, ${sizes.auditLogEntries}) g
        cross join lateral (select g / ${ruleCount} + g as m) mix
        join r on r.k = (g::bigint * 7919) % ${ruleCount}`),
      { name: 'audit_log', adding: sizes.auditLogEntries },
    );

  if (ruleCount && sizes.ruleLogEntries)
    await step(
      'rule log',
      () =>
        run(`
        with r as (${newRules})
        insert into rule_activity (created_at, rule_id, folder_id, action, ad_id, object_type, reason, state, slot)
        select ts, id, folder_id, action,
               case when action = 'turn_off_campaign' then (${CAMPAIGN_BASE} + g)::text
                    else (238500000000000000 + id::bigint * 100 + g % 37)::text end,
               case when action = 'turn_off_campaign' then 'campaign' else 'ad' end,
               case action
                 when 'turn_off_campaign' then json_build_object('Leads', (g % 30) || ' ≥ ' || (g % 30), 'Campaign', campaign)
                 when 'error' then json_build_object('Error', 'The ad platform did not answer (rate limit)', 'Campaign', campaign)
                 when 'alert_sent' then json_build_object('Alert', 'Daily summary sent', 'Campaign', campaign)
                 else json_build_object('CPL', '$' || (41 + g % 60) || '.' || lpad((g % 100)::text, 2, '0') || ' > $40.00',
                                        'Leads', (1 + g % 9)::text, 'Spend', '$' || (120 + g % 400) || '.00',
                                        'Campaign', campaign, 'Ad', ${pick(AD_CREATIVES, 'g')})
               end,
               'done', date_trunc('hour', ts)
        from (
          select m as g, r.id, r.folder_id,
                 now() - (${sizes.ruleLogEntries} - n) * ${HISTORY_SECONDS / sizes.ruleLogEntries} * interval '1 second' as ts,
                 case when m % 20 = 0 then 'alert_sent' when m % 20 = 1 then 'turn_off_campaign'
                      when m % 50 = 2 then 'error' else 'turn_off_ad' end as action,
                 r.client_type || ${eventSuffix.replace(/\bg\b/g, 'm')} || ' 6:30 PM - ' || split_part(r.folder_name, ' ', 1) as campaign
          from generate_series(1, ${sizes.ruleLogEntries}) n
          cross join lateral (select n / ${ruleCount} + n as m) mix
          join r on r.k = (n::bigint * 104729) % ${ruleCount}
        ) e`),
      { name: 'rule_activity', adding: sizes.ruleLogEntries },
    );

  if (sizes.campaigns)
    await step(
      'campaigns',
      () =>
        run(`
        insert into campaigns (campaign_id, ad_account_id, campaign_name, status, effective_status, topic, is_webinar, event_date, event_time,
                               spend, leads, impressions, clicks, link_clicks, cpl, ctr, cpc, end_date, updated_at)
        select ${CAMPAIGN_BASE} + ${campaignStart} + g,
               a.ad_account_id,
               case when g % 10 = 0 then 'Retargeting - ' || split_part(a.account_name, ' - ', 1) || ' - ' || ${pick(AD_CREATIVES, 'g')}
                    else ${pick(CLIENT_TYPES, 'g')} || ' - ' || topic || case when g % 3 = 0 then '-S' else '-W' end || ' - '
                         || to_char(event_day, 'MM/DD/YYYY') || ' ' || to_char(event_at, 'FMHH12:MI AM') || ' - ' || split_part(a.account_name, ' - ', 1) end,
               status, status,
               case when g % 10 = 0 then null else topic end,
               case when g % 10 = 0 then null else g % 3 <> 0 end,
               case when g % 10 = 0 then null else event_day end,
               case when g % 10 = 0 then null else to_char(event_at, 'HH24:MI') end,
               round(((g * 7919) % 200000 / 100.0)::numeric, 2),
               (g * 31) % 60,
               (g * 131) % 90000, (g * 17) % 3000, (g * 13) % 2500,
               case when (g * 31) % 60 = 0 then null else round(((g * 7919) % 200000 / 100.0 / ((g * 31) % 60))::numeric, 2) end,
               case when (g * 131) % 90000 = 0 then null else round(((g * 17) % 3000 * 100.0 / ((g * 131) % 90000))::numeric, 4) end,
               case when (g * 13) % 2500 = 0 then null else round(((g * 7919) % 200000 / 100.0 / ((g * 13) % 2500))::numeric, 4) end,
               event_day + interval '1 day',
               now() - (g % 1000) * interval '1 minute'
        from (
          select g, ${pick(topics, 'g / 7')} as topic,
                 case when g % 4 = 0 then 'PAUSED' else 'ACTIVE' end as status,
                 date '2024-01-01' + (g % 1100) as event_day,
                 time '09:00' + (g % 24) * interval '30 minutes' as event_at,
                 1 + g % (select count(*) from meta_ad_accounts) as k
          from generate_series(1, ${sizes.campaigns}) g
        ) c
        join (select ad_account_id, account_name, row_number() over (order by ad_account_id) as k from meta_ad_accounts) a
          on a.k = c.k`),
      { name: 'campaigns', adding: sizes.campaigns },
    );

  await step('vacuum analyze', () => dbh.sql.exec('vacuum analyze'));
  // Flush the bulk load now rather than in a checkpoint during timed calls (needs superuser; optional).
  if (dbh.kind === 'postgres') await dbh.sql.exec('checkpoint').catch(() => undefined);
  const after = await existingRows(dbh);
  return {
    accounts: after.meta_ad_accounts!,
    folders: after.folders!,
    rules: after.rules!,
    auditLog: after.audit_log!,
    ruleActivity: after.rule_activity!,
    campaigns: after.campaigns!,
    users: after.users!,
    seconds: (performance.now() - started) / 1000,
    steps,
  };
}

/** The single-request bench's scales, in per-rule terms, as totals. */
export function seedScale(dbh: DbHandle, scale: Scale): Promise<SeedCounts> {
  const rules = scale.folders * scale.rulesPerFolder;
  return seedData(dbh, {
    folders: scale.folders,
    rulesPerFolder: scale.rulesPerFolder,
    campaigns: scale.campaigns,
    auditLogEntries: rules * scale.logPerRule,
    ruleLogEntries: rules * scale.activityPerRule,
    teamMembers: 0,
  });
}

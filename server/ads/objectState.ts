/**
 * Whether an ad or campaign is on, and why not, from what the product already keeps — no call to the
 * ad platform:
 *
 * - a reading: for a campaign its row of the campaign sync (status, effective status, updated_at);
 *   for an ad the latest live reading the metric history kept (its on bit and its campaign's, in the
 *   hour it was read; a backfilled hour says what delivered, not the status, and is not one);
 * - its last switch: the latest done turn-off, undo, revive, rule turn-on or Meta pause in the rule
 *   activity and, for ads, a turn-on by hand the engine noticed (object_switches).
 *
 * A switch made since the reading decides; otherwise the reading does, and an object the reading
 * shows off is off for its last switch's reason while that switch is an off (a rule, Meta), else
 * because a person paused it (its own status PAUSED) or the platform holds it (archived, in review…).
 * An ad whose campaign is off is off for that. One SQL expression per object kind, so the ads list
 * filters and sorts on it and the campaigns list shows the same.
 */
import { sql, type SQL } from 'drizzle-orm';
import { RULE_TURN_ON_ACTIONS, TURN_OFF_ACTIONS, TURN_ON_FOR } from '../activity/entries';

const OFF_BY_RULE: readonly string[] = TURN_OFF_ACTIONS;
const META_PAUSE = 'paused_by_meta';
const META = sql.raw(`'${META_PAUSE}'`);
const ON_ACTIONS: readonly string[] = [...new Set(Object.values(TURN_ON_FOR)), 'revive_ad', ...RULE_TURN_ON_ACTIONS];

/** The product's own action names, written into the statement (constants: one plan for every call). */
const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));

/**
 * The object's last switch as a lateral subquery: `at`, `off`, `kind` ('rule', 'meta', 'on'), the
 * rule activity `entry_id` and its `rule_id` (null for a turn-on by hand). `byHand` adds the turn-ons by hand
 * (object_switches, read for ads only: a campaign's sync reading already shows them).
 */
export function lastSwitchOf(objectId: SQL, byHand: boolean): SQL {
  const entries = sql`(select e.created_at as at, e.action in (${list([...OFF_BY_RULE, META_PAUSE])}) as off,
      case when e.action = ${META} then 'meta' when e.action in (${list(OFF_BY_RULE)}) then 'rule' else 'on' end as kind,
      e.id as entry_id, e.rule_id
    from rule_activity e
    where e.ad_id = ${objectId} and e.state = 'done'
      and e.action in (${list([...OFF_BY_RULE, META_PAUSE, ...ON_ACTIONS])})
    order by e.created_at desc, e.id desc limit 1)`;
  if (!byHand) return entries;
  const turnedOnByHand = sql`(select s.at, s.turned = 'off' as off,
      case when s.turned = 'off' then 'person' else 'on' end as kind, null::int as entry_id, null::int as rule_id
    from object_switches s where s.object_id = ${objectId} order by s.at desc limit 1)`;
  // A turn-on at the same instant as a turn-off came after it.
  return sql`(select * from (${entries} union all ${turnedOnByHand}) as w order by w.at desc, w.off limit 1)`;
}

/** The Graph statuses that mean delivering: own status and effective status both ACTIVE. */
const delivering = (status: SQL, effective: SQL) =>
  sql`(${status} = 'ACTIVE' and coalesce(${effective}, 'ACTIVE') = 'ACTIVE')`;

/**
 * A campaign's reason (`on` or why it is off) from its synced row `c` and its last switch `sw`.
 * `reading` stands in when the campaign is not synced (its ad's history bit): true, false, or null.
 */
export function campaignReason(c: string, sw: string, reading: SQL = sql`null`): SQL {
  const [row, last] = [sql.raw(c), sql.raw(sw)];
  const switchedSince = sql`${last}.at is not null and (${row}.updated_at is null or ${last}.at >= ${row}.updated_at)`;
  return sql`case
    when ${switchedSince} then case when ${last}.off then ${last}.kind else 'on' end
    when ${row}.campaign_id is null then case
      when ${reading} is false then case when ${last}.off then ${last}.kind else 'person' end
      else 'on' end
    when ${row}.status is null then 'unknown'
    when ${delivering(sql`${row}.status`, sql`${row}.effective_status`)} then 'on'
    when ${row}.status = 'PAUSED' and ${last}.off then ${last}.kind
    when ${row}.status = 'PAUSED' then 'person'
    else 'platform'
  end`;
}

/** The campaigns row of an ad's campaign id (text; the simulator's and Graph's ids are digits). */
export const campaignOfAd = (campaignId: SQL) =>
  sql`(case when ${campaignId} ~ '^[0-9]{1,18}$' then ${campaignId}::bigint end)`;

/**
 * An ad's latest live reading in the metric history row `h` (its day is the one the ad was last read
 * in): the hour (`hr`, null when the day holds only backfilled hours), and the ad's and its campaign's
 * on bits then. A lateral subquery.
 */
export function liveReadingOf(h: string): SQL {
  const row = sql.raw(h);
  return sql`(select x.hr,
      (${row}.day + make_interval(hours => x.hr)) at time zone 'UTC' as at,
      ((${row}.on_mask >> x.hr) & 1) = 1 as on,
      ((${row}.campaign_on_mask >> x.hr) & 1) = 1 as campaign_on
    from (select case when live = 0 then null else 32 - position('1' in live::bit(32)::text) end as hr
      from (select coalesce(${row}.read_mask & ~${row}.settled_mask, 0) as live) as m) as x)`;
}

/**
 * An ad's reason from its reading `r`, its last switch `sw` and its campaign's reason (SQL text
 * 'on' or why the campaign is off).
 */
export function adReason(r: string, sw: string, campaign: SQL): SQL {
  const [reading, last] = [sql.raw(r), sql.raw(sw)];
  const switchedSince = sql`${last}.at is not null and (${reading}.at is null or ${last}.at >= ${reading}.at)`;
  return sql`case
    when ${switchedSince} and ${last}.off then ${last}.kind
    when ${campaign} <> 'on' then 'campaign'
    when ${switchedSince} then 'on'
    when ${reading}.at is null then 'unknown'
    when ${reading}.on then 'on'
    when ${last}.off then ${last}.kind
    else 'person'
  end`;
}

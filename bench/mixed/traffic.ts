/**
 * The browsing half of the mixed traffic: list requests as the screens send them (their page sizes,
 * sort columns in both directions, filter families and searches), with parameters drawn from the
 * seeded data (real folder, rule, actor and ad names, real ids) and pages within the first 50.
 * A fixed seed gives the same sequence, so runs and engines are comparable.
 */
import type { DbHandle } from '../../server/db/client';
import {
  ACTIVITY_SORTS,
  ACTIVITY_WORDS,
  CAMPAIGN_PAGE_SIZES,
  CAMPAIGN_SORTS,
  LOG_PAGE_SIZES,
  LOG_SORTS,
  MONTHS,
  TEAM_PAGE_SIZES,
  TEAM_SORTS,
} from './screens';

export const FAMILIES = ['general_page', 'trash_page', 'log', 'activity', 'campaigns', 'team'] as const;
export type Family = (typeof FAMILIES)[number];

export interface ListRequest {
  family: Family;
  path: string;
}

/** Names and ids from the seeded database that the requests filter and search by. */
export interface TrafficFacts {
  liveFolders: { id: number; name: string }[];
  trashedFolders: { id: number; name: string }[];
  ruleIds: number[];
  /** Switched on, in a live folder, complete: one a writer can switch off and on again. */
  activeRuleId: number;
  ruleNames: string[];
  actorNames: string[];
  adIds: string[];
  adAccountIds: string[];
  campaignIds: string[];
  topics: string[];
  liveFolderCount: number;
  trashedFolderCount: number;
  teamCount: number;
}

export async function trafficFacts(dbh: DbHandle): Promise<TrafficFacts> {
  const q = async <Row>(text: string) => (await dbh.sql.query<Row>(text)).rows;
  const folders = await q<{ id: number; name: string; is_deleted: boolean }>(
    'select id, name, is_deleted from folders order by id',
  );
  const [{ n: teamCount }] = (await q<{ n: number }>('select count(*)::int as n from users')) as [{ n: number }];
  return {
    liveFolders: folders.filter((f) => !f.is_deleted),
    trashedFolders: folders.filter((f) => f.is_deleted),
    liveFolderCount: folders.filter((f) => !f.is_deleted).length,
    trashedFolderCount: folders.filter((f) => f.is_deleted).length,
    ruleIds: (
      await q<{ id: number }>(
        'select r.id from rules r join folders f on f.id = r.folder_id where not r.is_deleted and not f.is_deleted order by r.id',
      )
    ).map((r) => r.id),
    activeRuleId: (
      await q<{ id: number }>(
        `select r.id from rules r join folders f on f.id = r.folder_id
         where r.is_active and not r.is_deleted and not f.is_deleted order by r.id offset 1000 limit 1`,
      )
    )[0]!.id,
    ruleNames: (await q<{ name: string }>("select name from audit_log_names where kind = 'rule' order by name")).map(
      (r) => r.name,
    ),
    actorNames: (await q<{ name: string }>("select name from audit_log_names where kind = 'actor' order by name")).map(
      (r) => r.name,
    ),
    // A spread of ads: every 997th entry's ad (an ad appears in several entries).
    adIds: (
      await q<{ ad_id: string }>(
        "select distinct ad_id from rule_activity where id % 997 = 0 and object_type = 'ad' and ad_id <> '' limit 500",
      )
    ).map((r) => r.ad_id),
    adAccountIds: (await q<{ id: string }>('select ad_account_id as id from meta_ad_accounts order by 1')).map(
      (r) => r.id,
    ),
    campaignIds: (
      await q<{ id: string }>('select campaign_id::text as id from campaigns where campaign_id % 101 = 0 limit 500')
    ).map((r) => r.id),
    topics: (await q<{ topic: string }>("select distinct topic from campaigns where topic <> '' limit 50")).map(
      (r) => r.topic,
    ),
    teamCount,
  };
}

/** mulberry32: a small seeded generator, so the sequence is the same every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAGES = 50;

export function trafficGenerator(facts: TrafficFacts, seed = 24) {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const enc = encodeURIComponent;
  const ids = <T>(list: readonly T[], n: number) => Array.from({ length: n }, () => pick(list)).join(',');
  const sort = (keys: string[]) => `${chance(0.5) ? '-' : ''}${pick(keys)}`;
  /** A page within the first 50, or fewer when the list has fewer. */
  const offset = (limit: number, rows = Number.POSITIVE_INFINITY) =>
    limit * Math.floor(random() * Math.max(1, Math.min(PAGES, Math.ceil(rows / limit))));
  /** A search a person types: a whole folder name, its first word, an actor's first name, a rule's name. */
  const nameSearch = () => {
    const folder = pick(facts.liveFolders).name;
    return pick([folder, folder.split(' ')[0]!, pick(facts.actorNames).split(' ')[0]!, pick(facts.ruleNames)]);
  };
  /** A filtered list has a few pages at most; an unfiltered one pages within the first 50. */
  const historyFilter = (activity: boolean): { query: string; filtered: boolean } => {
    const kind = Math.floor(random() * (activity ? 6 : 5));
    if (kind === 0) return { query: `&search=${enc(nameSearch())}`, filtered: true };
    if (kind === 1) return { query: `&rule_id_in=${ids(facts.ruleIds, 1 + Math.floor(random() * 3))}`, filtered: true };
    if (kind === 2)
      return {
        query: `&folder_id_in=${ids(
          facts.liveFolders.map((f) => f.id),
          1 + Math.floor(random() * 3),
        )}`,
        filtered: true,
      };
    if (kind === 5) {
      return chance(0.5)
        ? { query: `&ad_id_in=${ids(facts.adIds, 1 + Math.floor(random() * 3))}`, filtered: true }
        : { query: `&search=${enc(pick(ACTIVITY_WORDS))}`, filtered: true };
    }
    return { query: '', filtered: false };
  };
  const history = (base: string, sorts: string[], activity: boolean) => {
    const limit = pick(LOG_PAGE_SIZES);
    const { query, filtered } = historyFilter(activity);
    const at = filtered ? offset(limit, 3 * limit) : offset(limit);
    return `${base}?limit=${limit}&offset=${at}&ordering=${sort(sorts)}${query}`;
  };
  const campaignFilter = (): string => {
    switch (Math.floor(random() * 12)) {
      case 0:
        return `&campaign_name=${enc(pick(['TIR-W', 'EDM', 'SS', 'Webinar', pick(facts.liveFolders).name.split(' ')[0]!]))}`;
      case 1:
        return `&meta_ad_account=${pick(facts.adAccountIds)}`;
      case 2:
        return `&meta_ad_account=${enc(pick(facts.liveFolders).name.split(' ')[0]!)}`;
      case 3:
        return `&campaign_id__in=${ids(facts.campaignIds, 1 + Math.floor(random() * 3))}`;
      case 4:
        return `&event_type__in=${enc(ids(facts.topics, 1 + Math.floor(random() * 2)))}`;
      case 5:
        return `&is_webinar=${pick(['true', 'false'])}`;
      case 6: {
        const month = pick(MONTHS);
        return `&${pick(['event_date', 'end_date'])}_after=${month}-01&${pick(['event_date', 'end_date'])}_before=${month}-28`;
      }
      case 7: {
        const low = Math.floor(random() * 200);
        return `&${pick(['spend_range', 'cpl_annotation'])}_min=${low}&${pick(['spend_range', 'cpl_annotation'])}_max=${low + 50}`;
      }
      case 8: {
        const low = Math.floor(random() * 4);
        return `&${pick(['ctr_annotation', 'cpc_annotation'])}_min=${low}&${pick(['ctr_annotation', 'cpc_annotation'])}_max=${low + 1}`;
      }
      default:
        return '';
    }
  };

  const next = (family: Family): string => {
    switch (family) {
      case 'general_page': {
        const search = chance(0.3) ? nameSearch() : '';
        const at = search ? 0 : offset(20, facts.liveFolderCount);
        return `/api/general_page/?limit=20&offset=${at}${search ? `&search=${enc(search)}` : ''}`;
      }
      case 'trash_page': {
        const search = chance(0.3) ? pick(facts.trashedFolders).name.split(' ')[0]! : '';
        const at = search ? 0 : offset(10, facts.trashedFolderCount);
        return `/api/trash_page/?limit=10&offset=${at}&ordering=-trashed_at${search ? `&search=${enc(search)}` : ''}`;
      }
      case 'log':
        return history('/api/log/', LOG_SORTS, false);
      case 'activity':
        return history('/api/rule_log/', ACTIVITY_SORTS, true);
      case 'campaigns': {
        const limit = pick(CAMPAIGN_PAGE_SIZES);
        const filter = campaignFilter();
        const at = filter ? offset(limit, 3 * limit) : offset(limit);
        return `/api/campaigns/?limit=${limit}&offset=${at}&ordering=${sort(CAMPAIGN_SORTS)}${filter}`;
      }
      case 'team': {
        const limit = pick(TEAM_PAGE_SIZES);
        const search = chance(0.2) ? `&search=${enc(pick(facts.actorNames).split(' ')[0]!)}` : '';
        return `/api/user/?limit=${limit}&offset=${offset(limit, facts.teamCount)}&ordering=${sort(TEAM_SORTS)}${search}`;
      }
    }
  };

  /** `count` requests, the families taking turns in a shuffled order (each an equal share). */
  return (count: number): ListRequest[] =>
    Array.from({ length: count }, () => {
      const family = pick(FAMILIES);
      return { family, path: next(family) };
    });
}

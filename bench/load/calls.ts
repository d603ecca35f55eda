/**
 * Every list call the screens make, at the load bench's sizes: each list's first page, a deep
 * page, each filter family, a search and each ordering its screen offers (a column header's first
 * click sorts ascending; the default ordering is the first page), plus GET /api/user/me/, the
 * fixed cost of any authenticated call, as the baseline.
 */
import type { DbHandle } from '../../server/db/client';
import { ACTIVITY_SORTS, CAMPAIGN_SORTS, LOG_SORTS } from '../mixed/screens';
import { folderName, isTrashedFolder } from '../seed';

export interface LoadCall {
  /** The screen's endpoint (general_page, log, …), or "baseline". */
  endpoint: string;
  name: string;
  url: string;
}

/** Ids and names from the seeded data that the calls' filters and searches use. */
export interface LoadFacts {
  folders: number;
  middleFolderName: string;
  trashedFolderName: string;
  folderIds: number[];
  ruleIds: number[];
  adIds: string[];
  adAccountId: string;
  campaignIds: string[];
}

export async function loadFacts(dbh: DbHandle): Promise<LoadFacts> {
  const q = async <Row>(text: string, values?: unknown[]) => (await dbh.sql.query<Row>(text, values)).rows;
  const [{ n: folders }] = (await q<{ n: number }>('select count(*)::int as n from folders')) as [{ n: number }];
  let middle = Math.max(1, Math.floor(folders / 2));
  if (isTrashedFolder(middle)) middle -= 1;
  const trashed = Math.max(20, 20 * Math.floor(folders / 40));
  const [folder] = await q<{ id: number; ad_account_id: string }>(
    'select id, ad_account_id from folders where name = $1',
    [folderName(middle)],
  );
  if (!folder) throw new Error(`No folder named ${folderName(middle)}: was the database seeded by bench/seed.ts?`);
  const folderIds = (
    await q<{ id: number }>('select id from folders where not is_deleted and id >= $1 order by id limit 3', [folder.id])
  ).map((r) => r.id);
  const ruleIds = (
    await q<{ id: number }>('select id from rules where folder_id = $1 order by id limit 3', [folder.id])
  ).map((r) => r.id);
  const adIds = (
    await q<{ ad_id: string }>(
      `select distinct ad_id from rule_activity where rule_id = any($1::int[]) and object_type = 'ad' order by ad_id limit 3`,
      [ruleIds],
    )
  ).map((r) => r.ad_id);
  const campaignIds = (
    await q<{ id: string }>(
      'select campaign_id::text as id from campaigns where ad_account_id = $1 order by campaign_id limit 3',
      [folder.ad_account_id],
    )
  ).map((r) => r.id);
  return {
    folders,
    middleFolderName: folderName(middle),
    trashedFolderName: folderName(trashed),
    folderIds,
    ruleIds,
    adIds,
    adAccountId: folder.ad_account_id,
    campaignIds,
  };
}

export function loadCalls(facts: LoadFacts, deepOffset: number): LoadCall[] {
  const enc = encodeURIComponent;
  const log = '/api/log/?limit=10';
  const activity = '/api/rule_log/?limit=10';
  const campaigns = '/api/campaigns/?limit=10';
  const lastFolderPage = Math.max(0, Math.floor((facts.folders * 0.95 - 1) / 20) * 20);
  return [
    { endpoint: 'baseline', name: 'me', url: '/api/user/me/' },

    { endpoint: 'general_page', name: 'first page', url: '/api/general_page/?limit=20&offset=0' },
    {
      endpoint: 'general_page',
      name: 'search one folder',
      url: `/api/general_page/?limit=20&offset=0&search=${enc(facts.middleFolderName)}`,
    },
    { endpoint: 'general_page', name: 'last page', url: `/api/general_page/?limit=20&offset=${lastFolderPage}` },

    { endpoint: 'trash_page', name: 'first page', url: '/api/trash_page/?limit=10&offset=0' },
    {
      endpoint: 'trash_page',
      name: 'search one folder',
      url: `/api/trash_page/?limit=10&offset=0&search=${enc(facts.trashedFolderName)}`,
    },

    { endpoint: 'log', name: 'first page', url: `${log}&offset=0&ordering=-timestamp` },
    { endpoint: 'log', name: 'deep page', url: `${log}&offset=${deepOffset}&ordering=-timestamp` },
    { endpoint: 'log', name: 'rule_id_in', url: `${log}&offset=0&ordering=-timestamp&rule_id_in=${facts.ruleIds}` },
    {
      endpoint: 'log',
      name: 'folder_id_in',
      url: `${log}&offset=0&ordering=-timestamp&folder_id_in=${facts.folderIds}`,
    },
    {
      endpoint: 'log',
      name: 'search folder name',
      url: `${log}&offset=0&ordering=-timestamp&search=${enc(facts.middleFolderName)}`,
    },
    ...LOG_SORTS.map((o) => ({ endpoint: 'log', name: `ordering=${o}`, url: `${log}&offset=0&ordering=${o}` })),

    { endpoint: 'rule_log', name: 'first page', url: `${activity}&offset=0&ordering=-created_at` },
    { endpoint: 'rule_log', name: 'deep page', url: `${activity}&offset=${deepOffset}&ordering=-created_at` },
    {
      endpoint: 'rule_log',
      name: 'rule_id_in',
      url: `${activity}&offset=0&ordering=-created_at&rule_id_in=${facts.ruleIds}`,
    },
    {
      endpoint: 'rule_log',
      name: 'folder_id_in',
      url: `${activity}&offset=0&ordering=-created_at&folder_id_in=${facts.folderIds}`,
    },
    {
      endpoint: 'rule_log',
      name: 'ad_id_in',
      url: `${activity}&offset=0&ordering=-created_at&ad_id_in=${facts.adIds}`,
    },
    {
      endpoint: 'rule_log',
      name: 'search folder name',
      url: `${activity}&offset=0&ordering=-created_at&search=${enc(facts.middleFolderName)}`,
    },
    ...ACTIVITY_SORTS.map((o) => ({
      endpoint: 'rule_log',
      name: `ordering=${o}`,
      url: `${activity}&offset=0&ordering=${o}`,
    })),

    { endpoint: 'campaigns', name: 'first page', url: `${campaigns}&offset=0&ordering=-campaign_id` },
    { endpoint: 'campaigns', name: 'deep page', url: `${campaigns}&offset=${deepOffset}&ordering=-campaign_id` },
    { endpoint: 'campaigns', name: 'campaign_name contains', url: `${campaigns}&offset=0&campaign_name=TIR-W` },
    {
      endpoint: 'campaigns',
      name: 'meta_ad_account',
      url: `${campaigns}&offset=0&meta_ad_account=${facts.adAccountId}`,
    },
    {
      endpoint: 'campaigns',
      name: 'meta_ad_account name',
      url: `${campaigns}&offset=0&meta_ad_account=${enc(facts.middleFolderName.split(' ')[0]!)}`,
    },
    {
      endpoint: 'campaigns',
      name: 'campaign_id__in',
      url: `${campaigns}&offset=0&campaign_id__in=${facts.campaignIds}`,
    },
    { endpoint: 'campaigns', name: 'event_type__in', url: `${campaigns}&offset=0&event_type__in=EP,TIR` },
    { endpoint: 'campaigns', name: 'is_webinar', url: `${campaigns}&offset=0&is_webinar=true` },
    {
      endpoint: 'campaigns',
      name: 'event_date range',
      url: `${campaigns}&offset=0&event_date_after=2025-03-01&event_date_before=2025-03-31`,
    },
    {
      endpoint: 'campaigns',
      name: 'end_date range',
      url: `${campaigns}&offset=0&end_date_after=2025-03-01&end_date_before=2025-03-31`,
    },
    {
      endpoint: 'campaigns',
      name: 'spend range',
      url: `${campaigns}&offset=0&spend_range_min=100&spend_range_max=150`,
    },
    {
      endpoint: 'campaigns',
      name: 'cpl range',
      url: `${campaigns}&offset=0&cpl_annotation_min=20&cpl_annotation_max=40`,
    },
    {
      endpoint: 'campaigns',
      name: 'ctr range',
      url: `${campaigns}&offset=0&ctr_annotation_min=1&ctr_annotation_max=2`,
    },
    {
      endpoint: 'campaigns',
      name: 'cpc range',
      url: `${campaigns}&offset=0&cpc_annotation_min=1&cpc_annotation_max=2`,
    },
    ...CAMPAIGN_SORTS.map((o) => ({
      endpoint: 'campaigns',
      name: `ordering=${o}`,
      url: `${campaigns}&offset=0&ordering=${o}`,
    })),

    { endpoint: 'user', name: 'team first page', url: '/api/user/?limit=10&offset=0&ordering=id' },
  ];
}

/** The key of a call in latest.json and the report. */
export const callKey = (call: LoadCall) => (call.endpoint === 'baseline' ? 'me' : `${call.endpoint}: ${call.name}`);

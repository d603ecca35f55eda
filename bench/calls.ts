/**
 * The list calls measured. Each call asks for the same number of results at both scales (a full
 * page, or a search with a fixed number of matches), so the large/small ratio shows what the size
 * of the tables costs and nothing else.
 */
import type { DbHandle } from '../server/db/client';
import { folderName } from './seed';

export interface ApiCall {
  /** The screen/endpoint group, for the report. */
  endpoint: string;
  name: string;
  url: string;
}

/** What a scale's URLs depend on: how many live folders, and a few rules in the middle. */
export interface ScaleFacts {
  liveFolders: number;
  middleFolder: number;
  middleTrashedFolder: number;
  middleRuleIds: number[];
}

export async function scaleFacts(dbh: DbHandle, folders: number): Promise<ScaleFacts> {
  const live = await dbh.sql.query<{ n: number }>('select count(*)::int as n from folders where not is_deleted');
  // Folder n is trashed when n % 20 = 0 (seed.ts): pick a live one and a trashed one near the middle.
  let middleFolder = Math.max(1, Math.floor(folders / 2));
  if (middleFolder % 20 === 0) middleFolder -= 1;
  const middleTrashedFolder = Math.max(20, 20 * Math.floor(folders / 40));
  const ruleRows = await dbh.sql.query<{ id: number }>(
    'select r.id from rules r join folders f on f.id = r.folder_id where f.name = $1 order by r.id limit 3',
    [folderName(middleFolder)],
  );
  return {
    liveFolders: live.rows[0]!.n,
    middleFolder,
    middleTrashedFolder,
    middleRuleIds: ruleRows.rows.map((r) => r.id),
  };
}

export function apiCalls(facts: ScaleFacts): ApiCall[] {
  const ruleIds = facts.middleRuleIds.join(',');
  const search = (text: string) => encodeURIComponent(text);
  return [
    { endpoint: 'baseline', name: 'GET /api/user/me/ (fixed cost of any call)', url: '/api/user/me/' },

    { endpoint: 'general_page', name: 'first page (20)', url: '/api/general_page/?limit=20&offset=0' },
    {
      endpoint: 'general_page',
      name: 'search one folder by name',
      url: `/api/general_page/?limit=20&offset=0&search=${search(folderName(facts.middleFolder))}`,
    },
    {
      endpoint: 'general_page',
      name: 'last page (deep offset)',
      url: `/api/general_page/?limit=20&offset=${Math.max(0, facts.liveFolders - 20)}`,
    },

    { endpoint: 'trash_page', name: 'first page (10)', url: '/api/trash_page/?limit=10&offset=0' },
    {
      endpoint: 'trash_page',
      name: 'search one trashed folder',
      url: `/api/trash_page/?limit=10&offset=0&search=${search(folderName(facts.middleTrashedFolder))}`,
    },

    { endpoint: 'log', name: 'first page, -timestamp', url: '/api/log/?limit=10&offset=0&ordering=-timestamp' },
    {
      endpoint: 'log',
      name: 'first page, ad_account,-timestamp',
      url: '/api/log/?limit=10&offset=0&ordering=ad_account,-timestamp',
    },
    {
      endpoint: 'log',
      name: 'rule_id_in (3 rules), -timestamp',
      url: `/api/log/?limit=10&offset=0&ordering=-timestamp&rule_id_in=${ruleIds}`,
    },
    {
      endpoint: 'log',
      name: 'search one folder name',
      url: `/api/log/?limit=10&offset=0&ordering=-timestamp&search=${search(folderName(facts.middleFolder))}`,
    },

    { endpoint: 'campaigns', name: 'first page, default ordering', url: '/api/campaigns/?limit=10&offset=0' },
    {
      endpoint: 'campaigns',
      name: 'topic filter EP,TIR',
      url: '/api/campaigns/?limit=10&offset=0&event_type__in=EP,TIR',
    },
    {
      endpoint: 'campaigns',
      name: 'spend range 100–150',
      url: '/api/campaigns/?limit=10&offset=0&spend_range_min=100&spend_range_max=150',
    },
    { endpoint: 'campaigns', name: 'ordering -spend', url: '/api/campaigns/?limit=10&offset=0&ordering=-spend' },
    {
      endpoint: 'campaigns',
      name: 'name contains "TIR-W"',
      url: '/api/campaigns/?limit=10&offset=0&campaign_name=TIR-W',
    },

    { endpoint: 'rule_log', name: 'first page', url: '/api/rule_log/?limit=10&offset=0' },
    {
      endpoint: 'rule_log',
      name: 'rule_id_in (3 rules)',
      url: `/api/rule_log/?limit=10&offset=0&rule_id_in=${ruleIds}`,
    },
  ];
}

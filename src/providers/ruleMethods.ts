/**
 * The dataProvider's named methods for the product's core (docs/contract.md#calls): folder and trash pages by
 * offset, the folder, rule and trash actions outside CRUD, time zones and ad accounts, and the
 * rule engine's calls. Screens reach them through `useDataProvider<AppDataProvider>()`.
 */
import type { FolderDto, FolderPayload } from '../../shared/folders';
import type { RulePatch } from '../../shared/ruleEditor';
import type { RuleDto } from '../../shared/rules';
import type { JudgingPatch, RuleConflictDto, RuleJudging } from '../../shared/judging';
import type { AccountHealthDto, PlatformHealthDto } from '../../shared/health';
import { AD_ACCOUNT_LIST_LIMIT } from '../../shared/constants';
import type {
  ActivityEntry,
  ApproveResult,
  PreviewResult,
  RuleExemption,
  RuleRun,
  RunNowResult,
} from '../../shared/ruleRuns';
import type { BacktestJob, BacktestPausePage, HistoryCoverage } from '../../shared/backtest';
import type { ImpactReport } from '../../shared/impact';
import type { AgencyOverview } from '../../shared/overview';
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export interface PageOf<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface TrashFolderDto extends FolderDto {
  trashed_at: string | null;
}

export interface AdAccountOption {
  account_name: string;
  ad_account_id: string;
}

export interface TimezoneOption {
  title: string;
  value: string;
}

/** One page of a list by offset, so a list that lost or gained rows on screen still pages exactly. */
export interface PageQuery {
  search?: string;
  limit: number;
  offset: number;
  ordering?: string;
  signal?: AbortSignal;
}

const pageQuery = ({ search, limit, offset, ordering }: PageQuery) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (ordering) params.set('ordering', ordering);
  if (search) params.set('search', search);
  return params.toString();
};

/** The ad-account list answers a page or (from other backends of the contract) a bare list. */
const accountOptions = (answer: PageOf<AdAccountOption> | AdAccountOption[]): AdAccountOption[] =>
  Array.isArray(answer) ? answer : answer.results;

/** A rule body tried on history (POST /api/backtests/): the editor's unsaved settings. */
export interface BacktestRequestBody {
  folder: number;
  rule_id?: number | null;
  days: number;
  rule: {
    name?: string;
    rule_filter: { name: string; values: unknown; is_active: boolean }[];
    rule_task: { name: string; values: unknown; is_active: boolean }[];
    rule_schedule: { schedule: readonly (readonly boolean[])[]; timezone: string };
    judging?: RuleJudging;
  };
}

export interface ImpactQuery {
  scope: 'agency' | 'folder' | 'rule';
  id?: number;
  days: number;
}

const impactQuery = ({ scope, id, days }: ImpactQuery) =>
  new URLSearchParams({ scope, days: String(days), ...(id ? { id: String(id) } : {}) }).toString();

export function createRuleMethods(http: HttpClient) {
  const get = async <T>(url: string, signal?: AbortSignal) => (await http<T>(url, { signal })).json;
  const send = async <T>(url: string, method: string, body?: unknown) => (await http<T>(url, { method, body })).json;

  return {
    /** General view (docs/screens.md): folders oldest first. */
    getFolderPage: (query: PageQuery) =>
      get<PageOf<FolderDto>>(`${paths.generalPage}?${pageQuery({ ordering: 'created_at', ...query })}`, query.signal),
    updateFolder: (id: number, payload: FolderPayload) =>
      send<FolderDto>(paths.generalPageFolder(id), 'PATCH', payload),
    moveFolderToTrash: (id: number) => send<FolderDto>(paths.folderMoveToTrash(id), 'POST'),
    restoreFolder: (id: number) => send<FolderDto>(paths.folderRestore(id), 'POST'),
    deleteFolderForever: (id: number) => send<null>(paths.trashFolder(id), 'DELETE'),

    /** Sends the patch as it is (the editor already reduced it to what changed, docs/screens.md#states-and-transitions). */
    saveRule: (id: number, patch: RulePatch) => send<RuleDto>(paths.rule(id), 'PATCH', patch),
    setRuleActive: (id: number, isActive: boolean) => send<RuleDto>(paths.rule(id), 'PATCH', { is_active: isActive }),
    setRuleJudging: (id: number, judging: JudgingPatch) => send<RuleDto>(paths.rule(id), 'PATCH', { judging }),
    getRuleConflicts: (id: number, signal?: AbortSignal) => get<RuleConflictDto[]>(paths.ruleConflicts(id), signal),
    getPlatformHealth: (signal?: AbortSignal) => get<PlatformHealthDto>(paths.platformHealth, signal),
    getOverview: (signal?: AbortSignal) => get<AgencyOverview>(paths.overview, signal),
    getAccountHealth: (adAccountId: string, signal?: AbortSignal) =>
      get<AccountHealthDto>(paths.accountHealth(adAccountId), signal),
    setRuleNotifyOnly: (id: number, notifyOnly: boolean) =>
      send<RuleDto>(paths.rule(id), 'PATCH', { notify_only: notifyOnly }),
    addRule: (folderId: number) => send<RuleDto>(paths.ruleCreate, 'POST', { folder: folderId }),
    duplicateRule: (id: number) => send<RuleDto>(paths.ruleDuplicate(id), 'POST'),
    moveRuleToTrash: (id: number) => send<RuleDto>(paths.ruleMoveToTrash(id), 'POST'),
    restoreRule: (id: number) => send<RuleDto>(paths.ruleRestore(id), 'POST', { is_deleted: false }),
    deleteRuleForever: (id: number) => send<null>(paths.ruleDelete(id), 'DELETE'),
    getTimezones: (signal?: AbortSignal) => get<TimezoneOption[]>(paths.ruleTimezones, signal),

    /** Trash (docs/contract.md#calls): trashed folders, and live folders holding trashed rules. */
    getTrashPage: (query: PageQuery) => get<PageOf<TrashFolderDto>>(`${paths.trash}?${pageQuery(query)}`, query.signal),

    getAdAccounts: async (signal?: AbortSignal) =>
      accountOptions(
        await get<PageOf<AdAccountOption> | AdAccountOption[]>(
          `${paths.metaAdAccounts}?limit=${AD_ACCOUNT_LIST_LIMIT}`,
          signal,
        ),
      ),
    /** Re-reads the accounts from the ad platform (e.g. one created there since the server started). */
    refreshAdAccounts: async () => {
      await http(paths.metaAdAccountsRefresh);
    },

    // The rule engine (docs/api.md).
    previewRule: (ruleId: number, signal?: AbortSignal) => get<PreviewResult>(paths.rulePreview(ruleId), signal),
    runRuleNow: (ruleId: number) => send<RunNowResult>(paths.ruleRunNow(ruleId), 'POST'),
    undoRuleAction: (entryId: number) => send<ActivityEntry>(paths.ruleLogUndo(entryId), 'POST'),
    removeRuleExemption: async (ruleId: number, objectId: string) => {
      await send<null>(paths.ruleExemption(ruleId, objectId), 'DELETE');
    },
    getRuleExemptions: async (ruleId: number, signal?: AbortSignal) =>
      (await get<PageOf<RuleExemption>>(paths.ruleExemptions(ruleId), signal)).results,
    /** A rule's runs, newest first, without their objects. */
    getRuleRuns: (ruleId: number, query: PageQuery) =>
      get<PageOf<RuleRun>>(`${paths.ruleRuns(ruleId)}?${pageQuery(query)}`, query.signal),
    /** One run with every object it looked at, its planned turn-offs, problems and limits. */
    getRuleRun: (runId: number, signal?: AbortSignal) => get<RuleRun>(paths.ruleRun(runId), signal),
    approveHeldRun: (runId: number) => send<ApproveResult>(paths.ruleRunApprove(runId), 'POST'),
    dismissHeldRun: (runId: number) => send<RuleRun>(paths.ruleRunDismiss(runId), 'POST'),

    // Metric history, backtests, impact (docs/api.md).
    getHistoryCoverage: (folder: number, signal?: AbortSignal) =>
      get<HistoryCoverage>(`${paths.history}?folder=${folder}`, signal),
    fillHistory: (folder: number) => send<HistoryCoverage>(paths.historyFill, 'POST', { folder }),
    startBacktest: (body: BacktestRequestBody) => send<BacktestJob>(paths.backtests, 'POST', body),
    getBacktest: (id: string, signal?: AbortSignal) => get<BacktestJob>(paths.backtest(id), signal),
    cancelBacktest: (id: string) => send<BacktestJob>(paths.backtest(id), 'DELETE'),
    /** A page of a finished backtest's pauses past the first (the job's answer carries those). */
    getBacktestPauses: (id: string, query: PageQuery) =>
      get<BacktestPausePage>(`${paths.backtestPauses(id)}?${pageQuery(query)}`, query.signal),
    getImpact: (query: ImpactQuery, signal?: AbortSignal) =>
      get<ImpactReport>(`${paths.impact}?${impactQuery(query)}`, signal),
    /** The report's turn-offs as CSV text. */
    getImpactCsv: async (query: ImpactQuery) => (await http(`${paths.impactExport}?${impactQuery(query)}`)).body,
  };
}

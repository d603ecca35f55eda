/**
 * The folder, rule and trash calls of SPEC §7 the general view, the rule editor and the trash make,
 * through the app's one HTTP client (token refresh, error shapes) and its one module of paths.
 */
import { paths } from '../../providers/apiPaths';
import { httpClient } from '../../providers/httpClient';
import type { FolderDto, FolderPayload } from '../../domain/folders';
import type { RuleDto } from '../../domain/rules';
import type { RulePatch } from '../../domain/ruleEditor';
import { AD_ACCOUNT_LIST_LIMIT } from '../../domain/constants';

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

export interface ListQuery {
  search: string;
  limit: number;
  offset: number;
  ordering?: string;
}

const query = ({ search, limit, offset, ordering }: ListQuery) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (ordering) params.set('ordering', ordering);
  if (search) params.set('search', search);
  return params.toString();
};

const get = async <T>(url: string, signal?: AbortSignal) => (await httpClient<T>(url, { signal })).json;
const send = async <T>(url: string, method: string, body?: unknown) =>
  (await httpClient<T>(url, { method, body })).json;

export const rulesApi = {
  folders: (q: ListQuery, signal?: AbortSignal) =>
    get<PageOf<FolderDto>>(`${paths.generalPage}?${query({ ordering: 'created_at', ...q })}`, signal),
  folder: (id: number) => get<FolderDto>(paths.generalPageFolder(id)),
  createFolder: (payload: FolderPayload) => send<FolderDto>(paths.generalPage, 'POST', payload),
  updateFolder: (id: number, payload: FolderPayload) => send<FolderDto>(paths.generalPageFolder(id), 'PATCH', payload),
  trashFolder: (id: number) => send<FolderDto>(paths.folderMoveToTrash(id), 'POST'),
  restoreFolder: (id: number) => send<FolderDto>(paths.folderRestore(id), 'POST'),
  deleteFolder: (id: number) => send<null>(paths.trashFolder(id), 'DELETE'),

  rule: (id: number | string, signal?: AbortSignal) => get<RuleDto>(paths.rule(id), signal),
  saveRule: (id: number, patch: RulePatch | { is_active: boolean }) => send<RuleDto>(paths.rule(id), 'PATCH', patch),
  addRule: (folderId: number) => send<RuleDto>(paths.ruleCreate, 'POST', { folder: folderId }),
  duplicateRule: (id: number) => send<RuleDto>(paths.ruleDuplicate(id), 'POST'),
  trashRule: (id: number) => send<RuleDto>(paths.ruleMoveToTrash(id), 'POST'),
  restoreRule: (id: number) => send<RuleDto>(paths.ruleRestore(id), 'POST', { is_deleted: false }),
  deleteRule: (id: number) => send<null>(paths.ruleDelete(id), 'DELETE'),
  timezones: (signal?: AbortSignal) => get<TimezoneOption[]>(paths.ruleTimezones, signal),

  trash: (q: ListQuery, signal?: AbortSignal) => get<PageOf<TrashFolderDto>>(`${paths.trash}?${query(q)}`, signal),

  adAccounts: async (signal?: AbortSignal) =>
    await get<PageOf<AdAccountOption> | AdAccountOption[]>(
      `${paths.metaAdAccounts}?limit=${AD_ACCOUNT_LIST_LIMIT}`,
      signal,
    ),
};

/** The ad-account list answers a page or (from other backends of the contract) a bare list. */
export const accountOptions = (answer: PageOf<AdAccountOption> | AdAccountOption[]): AdAccountOption[] =>
  Array.isArray(answer) ? answer : answer.results;

/** Whether a failed toggle is SPEC §8's "rule has issues" answer: a 400 with rule_filter or rule_task. */
export function isRuleIssuesError(error: unknown): boolean {
  const { status, body } = (error ?? {}) as { status?: number; body?: Record<string, unknown> | null };
  return status === 400 && Boolean(body && ('rule_filter' in body || 'rule_task' in body));
}

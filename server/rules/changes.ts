/**
 * The readable `changes_text` of audit entries for folders and rules: old → new per field, with
 * the labels the screens use. Credentials are never written to the log, only whether they changed.
 */
import { describeChanges, describeValues } from '../audit/log';
import { planLabel } from '../../shared/folders';
import { itemLabel, taskSpec, type FilterItem, type TaskItem } from '../../shared/rules';
import { addedCells, hourLabel, hoursOn } from '../../shared/schedule';
import { credentialsDiffer, type StoredCredentials } from './credentials';
import { judgingChangesText } from './judgingChanges';
import type { RuleJudging } from '../../shared/judging';
import type { ConditionGroup } from '../../shared/ruleConditions';
import type { RuleAction } from '../../shared/ruleActions';
import { conditionChangesText } from './conditionChanges';
import type { AccountRow, FolderRow } from './store';
import { DEFAULT_BUDGET_LIMITS, type BudgetLimits } from '../../shared/budgetLimits';
import { budgetLimitsChangesText } from './folderBudgetLimits';

export const AUDIT_ACTIONS = {
  folderCreated: 'Folder created',
  folderUpdated: 'Folder updated',
  folderTrashed: 'Folder moved to trash',
  folderRestored: 'Folder restored',
  folderDeleted: 'Folder deleted',
  ruleCreated: 'Rule created',
  ruleUpdated: 'Rule updated',
  ruleDuplicated: 'Rule duplicated',
  ruleTrashed: 'Rule moved to trash',
  ruleRestored: 'Rule restored',
  ruleDeleted: 'Rule deleted',
} as const;

const accountText = (a: AccountRow | null, id: string) => (a ? `${a.accountName} (${a.adAccountId})` : id);
/** A folder's own alert recipients, or that the default ones receive its alerts. */
const recipientsText = (emails: string[] | undefined) =>
  emails?.length ? emails.join(', ') : 'the default recipients';
const credentialsText = (c: StoredCredentials) => (c === 'unreadable' ? 'unreadable' : c ? 'set' : 'not set');

export interface FolderSnapshot {
  /** alertEmails absent: as the defaults (none of the folder's own). */
  folder: Pick<FolderRow, 'name' | 'clientType' | 'plan' | 'adAccountId'> & { alertEmails?: string[] };
  account: AccountRow | null;
  credentials: StoredCredentials;
  /** Whole, as read (the defaults for those never set). */
  budgetLimits: BudgetLimits;
}

/** What a folder was created with; budget limits only where they differ from the defaults. */
export function folderCreatedText({ folder, account, credentials, budgetLimits }: FolderSnapshot): string {
  const values = describeValues({
    Name: folder.name,
    Type: folder.clientType,
    Plan: planLabel(folder.plan),
    'Ad account': accountText(account, folder.adAccountId),
    'Webinar credentials': credentialsText(credentials),
    ...(folder.alertEmails?.length ? { 'Alert recipients': recipientsText(folder.alertEmails) } : {}),
  });
  return [values, budgetLimitsChangesText(DEFAULT_BUDGET_LIMITS, budgetLimits)].filter(Boolean).join('; ');
}

export function folderChangesText(before: FolderSnapshot, after: FolderSnapshot): string {
  const text = describeChanges({
    Name: [before.folder.name, after.folder.name],
    Type: [before.folder.clientType, after.folder.clientType],
    Plan: [planLabel(before.folder.plan), planLabel(after.folder.plan)],
    'Ad account': [
      accountText(before.account, before.folder.adAccountId),
      accountText(after.account, after.folder.adAccountId),
    ],
    'Alert recipients': [recipientsText(before.folder.alertEmails), recipientsText(after.folder.alertEmails)],
  });
  const limits = budgetLimitsChangesText(before.budgetLimits, after.budgetLimits);
  if (!credentialsDiffer(before.credentials, after.credentials)) return [text, limits].filter(Boolean).join('; ');
  const credentials =
    before.credentials && after.credentials
      ? 'Webinar credentials: changed'
      : `Webinar credentials: ${credentialsText(before.credentials)} → ${credentialsText(after.credentials)}`;
  return [text, credentials, limits].filter(Boolean).join('; ');
}

const onOff = (on: boolean) => (on ? 'on' : 'off');

const listText = (values: string[]) => (values.length ? values.join(', ') : '—');

/** One item's change, only the parts that moved: 'off → on, CPL — → 50'; '' when nothing did. */
function itemChangeText(before: FilterItem | TaskItem, after: FilterItem | TaskItem): string {
  const parts: string[] = [];
  if (before.is_active !== after.is_active && after.name !== 'campaign_name_contains') {
    parts.push(`${onOff(before.is_active)} → ${onOff(after.is_active)}`);
  }
  if (after.type === 'rule_filter') {
    const old = listText(before.values as string[]);
    const now = listText(after.values);
    if (old !== now) parts.push(`${old} → ${now}`);
  } else {
    for (const value of taskSpec(after.name)?.values ?? []) {
      const old = (before.values as TaskItem['values'])[value.key] || '—';
      const now = after.values[value.key] || '—';
      if (old !== now) parts.push(`${value.label} ${old} → ${now}`);
    }
  }
  return parts.join(', ');
}

const MAX_CELLS = 8;
function cellsText(cells: string[]): string {
  return cells.length > MAX_CELLS
    ? `${cells.slice(0, MAX_CELLS).join(', ')} and ${cells.length - MAX_CELLS} more`
    : cells.join(', ');
}

export function scheduleChangesText(before: boolean[][], after: boolean[][]): string {
  const added = addedCells(before, after);
  const removed = addedCells(after, before);
  const parts = [
    added.length ? `added ${cellsText(added)}` : '',
    removed.length ? `removed ${cellsText(removed)}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

const alertText = (day: boolean[]) => hoursOn(day).map(hourLabel).join(', ') || 'none';

export interface RuleSnapshot {
  name: string;
  isActive: boolean;
  notifyOnly: boolean;
  schedule: boolean[][];
  timezone: string;
  alertSchedule: boolean[];
  judging: RuleJudging;
  conditions: ConditionGroup | null;
  action: RuleAction | null;
  filters: FilterItem[];
  tasks: TaskItem[];
}

export function ruleChangesText(before: RuleSnapshot, after: RuleSnapshot): string {
  const parts = [
    describeChanges({
      Name: [before.name, after.name],
      Active: [onOff(before.isActive), onOff(after.isActive)],
      'Notify only': [onOff(before.notifyOnly), onOff(after.notifyOnly)],
    }),
  ];
  for (const item of [...after.filters, ...after.tasks]) {
    const old = [...before.filters, ...before.tasks].find((i) => i.name === item.name);
    const change = old ? itemChangeText(old, item) : '';
    if (change) parts.push(`${itemLabel(item.name)}: ${change}`);
  }
  parts.push(
    describeChanges({
      'Time zone': [before.timezone, after.timezone],
      'Alert schedule': [alertText(before.alertSchedule), alertText(after.alertSchedule)],
    }),
  );
  parts.push(judgingChangesText(before.judging, after.judging));
  parts.push(conditionChangesText(before, after));
  const schedule = scheduleChangesText(before.schedule, after.schedule);
  if (schedule) parts.push(`Schedule: ${schedule}`);
  return parts.filter(Boolean).join('; ');
}

/**
 * The readable `changes_text` of audit entries for folders and rules: old → new per field, with
 * the labels the screens use. Credentials are never written to the log, only whether they changed.
 */
import { describeChanges, describeValues } from '../audit/log';
import { planLabel, type DemioCredentials } from '../../src/domain/folders';
import { itemLabel, taskSpec, type FilterItem, type TaskItem } from '../../src/domain/rules';
import { addedCells, hourLabel, hoursOn } from '../../src/domain/schedule';
import type { AccountRow, FolderRow } from './store';

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
const credentialsText = (c: DemioCredentials | null) => (c ? 'set' : 'not set');

export interface FolderSnapshot {
  folder: Pick<FolderRow, 'name' | 'clientType' | 'plan' | 'adAccountId'>;
  account: AccountRow | null;
  credentials: DemioCredentials | null;
}

export function folderCreatedText({ folder, account, credentials }: FolderSnapshot): string {
  return describeValues({
    Name: folder.name,
    Type: folder.clientType,
    Plan: planLabel(folder.plan),
    'Ad account': accountText(account, folder.adAccountId),
    'Webinar credentials': credentialsText(credentials),
  });
}

export function folderChangesText(before: FolderSnapshot, after: FolderSnapshot): string {
  const credentialsChanged = JSON.stringify(before.credentials) !== JSON.stringify(after.credentials);
  const text = describeChanges({
    Name: [before.folder.name, after.folder.name],
    Type: [before.folder.clientType, after.folder.clientType],
    Plan: [planLabel(before.folder.plan), planLabel(after.folder.plan)],
    'Ad account': [accountText(before.account, before.folder.adAccountId), accountText(after.account, after.folder.adAccountId)],
  });
  if (!credentialsChanged) return text;
  const credentials = before.credentials && after.credentials
    ? 'Webinar credentials: changed'
    : `Webinar credentials: ${credentialsText(before.credentials)} → ${credentialsText(after.credentials)}`;
  return [text, credentials].filter(Boolean).join('; ');
}

const onOff = (on: boolean) => (on ? 'on' : 'off');

function itemText(item: FilterItem | TaskItem): string {
  if (item.type === 'rule_filter') {
    const list = item.values.length ? item.values.join(', ') : '—';
    return item.name === 'campaign_name_contains' ? list : `${onOff(item.is_active)}, ${list}`;
  }
  const values = (taskSpec(item.name)?.values ?? []).map((v) => `${v.label} ${item.values[v.key] || '—'}`);
  return [onOff(item.is_active), ...values].join(', ');
}

const MAX_CELLS = 8;
function cellsText(cells: string[]): string {
  return cells.length > MAX_CELLS ? `${cells.slice(0, MAX_CELLS).join(', ')} and ${cells.length - MAX_CELLS} more` : cells.join(', ');
}

export function scheduleChangesText(before: boolean[][], after: boolean[][]): string {
  const added = addedCells(before, after);
  const removed = addedCells(after, before);
  const parts = [added.length ? `added ${cellsText(added)}` : '', removed.length ? `removed ${cellsText(removed)}` : ''];
  return parts.filter(Boolean).join(', ');
}

const alertText = (day: boolean[]) => hoursOn(day).map(hourLabel).join(', ') || 'none';

export interface RuleSnapshot {
  name: string;
  isActive: boolean;
  schedule: boolean[][];
  timezone: string;
  alertSchedule: boolean[];
  filters: FilterItem[];
  tasks: TaskItem[];
}

export function ruleChangesText(before: RuleSnapshot, after: RuleSnapshot): string {
  const changes: Record<string, [unknown, unknown]> = {
    Name: [before.name, after.name],
    Active: [onOff(before.isActive), onOff(after.isActive)],
  };
  for (const item of [...after.filters, ...after.tasks]) {
    const old = [...before.filters, ...before.tasks].find((i) => i.name === item.name);
    if (old) changes[itemLabel(item.name)] = [itemText(old), itemText(item)];
  }
  changes['Time zone'] = [before.timezone, after.timezone];
  changes['Alert schedule'] = [alertText(before.alertSchedule), alertText(after.alertSchedule)];
  const parts = [describeChanges(changes)];
  const schedule = scheduleChangesText(before.schedule, after.schedule);
  if (schedule) parts.push(`Schedule: ${schedule}`);
  return parts.filter(Boolean).join('; ');
}

/**
 * Who may change a template: a person who may edit rules in every folder that follows it. One who
 * may edit only some of them sees it read-only and overrides it in their own folders.
 */
import { permissionDenied } from '../http/errors';
import type { Follower } from './followers';

/** Where a person may edit rules (server/people/ruleScope.ts). */
export interface EditScope {
  folders: 'all' | ReadonlySet<number>;
}

export const mayEditIn = (scope: EditScope, folderId: number) => scope.folders === 'all' || scope.folders.has(folderId);

const MAX_NAMED = 5;
const namesText = (names: string[]) =>
  names.length > MAX_NAMED
    ? `${names.slice(0, MAX_NAMED).join(', ')} and ${names.length - MAX_NAMED} more`
    : names.join(', ');

/** Why the person may not edit the template, or null when they may. */
export function readOnlyReason(scope: EditScope, canEditRules: boolean, followers: Follower[]): string | null {
  if (!canEditRules) return 'You may read rules but not edit them.';
  const outside = [...new Set(followers.filter((f) => !mayEditIn(scope, f.folderId)).map((f) => f.folderName))];
  if (!outside.length) return null;
  return `This template is used by folders whose rules you may not edit (${namesText(outside)}). You can override it in your own folders.`;
}

export function requireEditable(scope: EditScope, canEditRules: boolean, followers: Follower[]): void {
  const reason = readOnlyReason(scope, canEditRules, followers);
  if (reason) throw permissionDenied(reason);
}

export function requireFolderInScope(scope: EditScope, folderId: number, folderName: string): void {
  if (!mayEditIn(scope, folderId))
    throw permissionDenied(
      `You may not edit rules in ${folderName}: your permission group's folders do not include it.`,
    );
}

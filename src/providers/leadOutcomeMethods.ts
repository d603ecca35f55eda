/**
 * The dataProvider's calls for a folder's lead outcomes (docs/api.md, "Lead outcomes (CRM)"): the
 * CRM summary by stage, the CSV upload, the folder's key (made or rotated, shown once; revoked),
 * and the folder's webinar and CRM figures summed over its campaigns.
 */
import type { FolderOutcomes } from '../../shared/folderOutcomes';
import type { CrmResult, LeadOutcomeSummary, NewOutcomeKey } from '../../shared/leadOutcomes';
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export function createLeadOutcomeMethods(http: HttpClient) {
  return {
    getFolderOutcomes: async (folderId: number, signal?: AbortSignal) =>
      (await http<FolderOutcomes>(paths.folderOutcomes(folderId), { signal })).json,
    getLeadOutcomes: async (folderId: number, signal?: AbortSignal) =>
      (await http<LeadOutcomeSummary>(paths.folderLeadOutcomes(folderId), { signal })).json,
    /** The file's text as the body, text/csv (the server refuses more than CRM_UPLOAD_MAX_BYTES). */
    uploadLeadOutcomes: async (folderId: number, csv: string) =>
      (
        await http<CrmResult>(paths.folderLeadOutcomesUpload(folderId), {
          method: 'POST',
          body: csv,
          headers: { 'Content-Type': 'text/csv' },
        })
      ).json,
    rotateOutcomeKey: async (folderId: number) =>
      (await http<NewOutcomeKey>(paths.folderOutcomeKey(folderId), { method: 'POST' })).json,
    revokeOutcomeKey: async (folderId: number) => {
      await http(paths.folderOutcomeKey(folderId), { method: 'DELETE' });
    },
  };
}

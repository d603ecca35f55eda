/** The rule engine's calls: Run now, Preview, Undo, and removing an exemption. */
import { paths } from '../../providers/apiPaths';
import { httpClient } from '../../providers/httpClient';
import type { ActivityEntry, PreviewResult, RunNowResult } from './types';

export const engineApi = {
  preview: async (ruleId: number, signal?: AbortSignal) =>
    (await httpClient<PreviewResult>(paths.rulePreview(ruleId), { signal })).json,
  runNow: async (ruleId: number) => (await httpClient<RunNowResult>(paths.ruleRunNow(ruleId), { method: 'POST' })).json,
  undo: async (entryId: number) =>
    (await httpClient<ActivityEntry>(paths.ruleLogUndo(entryId), { method: 'POST' })).json,
  removeExemption: async (ruleId: number, objectId: string) => {
    await httpClient(paths.ruleExemption(ruleId, objectId), { method: 'DELETE' });
  },
};

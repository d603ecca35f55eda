/**
 * The trash's restores and deletes, through the dataProvider (run by useTrashMutation). A delete
 * waits for 'Confirm delete?': `deleting` says the dialog is asking.
 */
import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { FolderRuleDto } from '../../../shared/folders';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { TrashFolderDto } from '../../providers/ruleMethods';
import { restoredRuleMessage } from '../general/useFolderActions';
import { useTrashMutation } from './useTrashMutation';

type DeleteTarget = { kind: 'folder'; folder: TrashFolderDto } | { kind: 'rule'; rule: FolderRuleDto };

export function useTrashChanges(errors: { clearErrors: () => void; showError: (error: unknown) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const run = useTrashMutation(errors);

  const confirmDelete = () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    void run(
      () =>
        target.kind === 'folder'
          ? dataProvider.delete('trash_page', { id: target.folder.id, previousData: target.folder })
          : dataProvider.deleteRuleForever(target.rule.id),
      'rules.trash.deleted',
    );
  };

  return {
    restoreFolder: (folder: TrashFolderDto) => run(() => dataProvider.restoreFolder(folder.id), 'rules.trash.restored'),
    restoreRule: (rule: FolderRuleDto) =>
      run(
        () => dataProvider.restoreRule(rule.id),
        (restored) => restoredRuleMessage(restored, rule.name),
      ),
    askToDeleteFolder: (folder: TrashFolderDto) => setDeleting({ kind: 'folder', folder }),
    askToDeleteRule: (rule: FolderRuleDto) => setDeleting({ kind: 'rule', rule }),
    deleting: deleting !== null,
    cancelDelete: () => setDeleting(null),
    confirmDelete,
  };
}

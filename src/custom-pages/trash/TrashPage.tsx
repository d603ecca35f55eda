/**
 * Trash (/trash and /trash/, docs/screens.md): back arrow, title, search, and the tree of trashed folders
 * (with their rules) and of live folders holding trashed rules. Each trashed row can be restored or
 * deleted after 'Confirm delete?', and has its A and L links.
 */
import { LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ErrorList } from '../../layout/ErrorList';
import { Page } from '../../layout/Page';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { TrashFolderItem } from './TrashFolderItem';
import { TrashToolbar } from './TrashToolbar';
import { useTrashPage } from './useTrashPage';

function EmptyTrash({ search }: { search: string }) {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
      {search ? translate('rules.trash.no_match', { search }) : translate('rules.trash.empty')}
    </Typography>
  );
}

export function TrashPage() {
  const translate = useTranslate();
  const trash = useTrashPage();
  return (
    <Page title="app.page.trash" toolbar={<TrashToolbar search={trash.search} onSearch={trash.searchFor} />}>
      <ErrorList errors={trash.errors} />
      <Stack component="ul" spacing={1} sx={{ p: 0, m: 0 }} aria-label={translate('rules.trash.title')}>
        {trash.folders.map((folder) => (
          <TrashFolderItem
            key={folder.id}
            folder={folder}
            onRestoreFolder={trash.restoreFolder}
            onDeleteFolder={trash.askToDeleteFolder}
            onRestoreRule={trash.restoreRule}
            onDeleteRule={trash.askToDeleteRule}
          />
        ))}
      </Stack>
      {trash.loading ? <LinearProgress sx={{ my: 2 }} /> : null}
      {trash.empty ? <EmptyTrash search={trash.search} /> : null}
      <ConfirmDeleteDialog open={trash.deleting} onCancel={trash.cancelDelete} onConfirm={trash.confirmDelete} />
    </Page>
  );
}

export default TrashPage;

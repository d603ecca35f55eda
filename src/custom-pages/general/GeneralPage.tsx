/**
 * General view (/, docs/screens.md): search (500 ms debounce, opens every folder while active), Create
 * Folder, the trash link, and the folder tree with infinite scroll (20 a page).
 */
import AddIcon from '@mui/icons-material/Add';
import { Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { FolderDto } from '../../../shared/folders';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { Page } from '../../layout/Page';
import { ToolbarSpacer } from '../../layout/PageToolbar';
import { SearchBox } from '../../layout/SearchBox';
import { TrashLink } from '../../layout/TrashLink';
import { rowsOf } from '../../providers/offsetPaging';
import { usePermission } from '../../providers/usePermissions';
import { OverviewLink } from '../overview/OverviewLink';
import { FolderDialog } from './FolderDialog';
import { addCreatedFolder, replaceFolder, useFolderPages } from './folderPages';
import { FolderNode } from './FolderTree';
import { useFolderActions } from './useFolderActions';
import { useGeneralView } from './useGeneralView';
import { useInfiniteScroll } from './useInfiniteScroll';

export function GeneralPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const canCreate = usePermission('create_update_rules');
  // Back from the editor the list is as the user left it, then loaded again so a saved change shows.
  const [{ search, opened, scrollY }, updateView] = useGeneralView();
  const setOpened = useCallback(
    (change: (opened: number[]) => number[]) => updateView((view) => ({ opened: change(view.opened) })),
    [updateView],
  );
  const list = useFolderPages(search);
  const folders = rowsOf(list.data);
  const { errors, showError, clearErrors } = useErrorList();
  const [dialog, setDialog] = useState<{ open: boolean; folder: FolderDto | null }>({ open: false, folder: null });
  const { actions, busyFolders } = useFolderActions({
    setOpened,
    onEdit: (folder) => setDialog({ open: true, folder }),
    showError,
    clearErrors,
  });
  const restoredScroll = useRef(false);

  useEffect(() => {
    if (list.error) showError(list.error);
  }, [list.error, showError]);

  useEffect(() => () => updateView({ scrollY: window.scrollY }), [updateView]);

  // Back from the editor: put the list where it was once its folders are on screen again.
  useLayoutEffect(() => {
    if (restoredScroll.current || !list.data) return;
    restoredScroll.current = true;
    if (scrollY > 0) window.scrollTo(0, scrollY);
  }, [list.data, scrollY]);

  // docs/screens.md: a search change resets paging (the box waits the 500 ms debounce): a new list.
  const searchFor = (text: string) => {
    clearErrors();
    updateView({ search: text });
  };

  useInfiniteScroll({
    canLoadMore: list.hasNextPage && !list.isError,
    loading: list.isFetching,
    loadMore: () => void list.fetchNextPage(),
    loads: list.data?.pages.length ?? 0,
  });

  const onSaved = (folder: FolderDto) => {
    const created = !dialog.folder;
    setDialog({ open: false, folder: null });
    if (created) {
      addCreatedFolder(queryClient, folder);
      setOpened((ids) => [...ids, folder.id]);
    } else {
      replaceFolder(queryClient, folder);
    }
    notify(translate(created ? 'rules.general.folder_created' : 'rules.general.folder_updated'), {
      type: 'success',
      autoHideDuration: SNACKBAR_TIMEOUT_MS,
    });
  };

  const searching = search !== '';
  return (
    <Page
      title="app.page.general"
      toolbar={
        <>
          <SearchBox value={search} onSearch={searchFor} label={translate('rules.general.search')} />
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            disabled={!canCreate}
            onClick={() => setDialog({ open: true, folder: null })}
          >
            {translate('rules.general.create_folder')}
          </Button>
          <OverviewLink />
          <ToolbarSpacer />
          <TrashLink />
        </>
      }
    >
      <ErrorList errors={errors} />
      <Stack component="ul" spacing={1} sx={{ p: 0, m: 0 }} aria-label={translate('app.page.general')}>
        {folders.map((folder) => (
          <FolderNode
            key={folder.id}
            folder={folder}
            open={searching || opened.includes(folder.id)}
            busy={busyFolders.includes(folder.id)}
            actions={actions}
          />
        ))}
      </Stack>
      {list.isFetching ? <LinearProgress sx={{ my: 2 }} aria-label={translate('rules.general.loading')} /> : null}
      {list.data && !list.isFetching && !folders.length ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {searching ? translate('rules.general.no_match', { search }) : translate('rules.general.empty')}
        </Typography>
      ) : null}
      <FolderDialog
        open={dialog.open}
        folder={dialog.folder}
        onClose={() => setDialog({ open: false, folder: null })}
        onSaved={onSaved}
      />
    </Page>
  );
}

export default GeneralPage;

/**
 * General view (/, SPEC §2): search (500 ms debounce, opens every folder while active), Create
 * Folder, the trash link, and the folder tree with infinite scroll (20 a page).
 */
import AddIcon from '@mui/icons-material/Add';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { RULE_ACTIVATION_SNACKBAR_MS, SNACKBAR_TIMEOUT_MS } from '../../domain/constants';
import type { FolderDto, FolderRuleDto } from '../../domain/folders';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { SearchBox } from '../../layout/SearchBox';
import { TrashLink } from '../../layout/TrashLink';
import { usePermission, useSessionUser } from '../../providers/usePermissions';
import { isRuleIssuesError, rulesApi } from './api';
import { FolderDialog } from './FolderDialog';
import { folderListStore, useFolderListState } from './folderListStore';
import { FolderNode, type FolderActions } from './FolderTree';
import { useInfiniteScroll } from './useInfiniteScroll';

export function GeneralPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const user = useSessionUser();
  const canCreate = usePermission('create_update_rules');
  const list = useFolderListState();
  const { errors, showError, clearErrors } = useErrorList();
  const [dialog, setDialog] = useState<{ open: boolean; folder: FolderDto | null }>({ open: false, folder: null });
  const [busyFolders, setBusyFolders] = useState<number[]>([]);
  const restoredScroll = useRef(false);

  const success = useCallback(
    (key: string) => notify(translate(key), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS }),
    [notify, translate],
  );

  // Opening the page once per visit; the user does not change while it shows.
  const openList = useEffectEvent(() => folderListStore.open(user?.id ?? null).catch(showError));
  useEffect(() => {
    openList();
    return () => folderListStore.saveScroll(window.scrollY);
  }, []);

  // Back from the editor: put the list where it was once its folders are on screen again.
  useLayoutEffect(() => {
    if (restoredScroll.current || !list.loaded) return;
    restoredScroll.current = true;
    if (list.scrollY > 0) window.scrollTo(0, list.scrollY);
  }, [list.loaded, list.scrollY]);

  // SPEC §2: a search change resets paging (the box waits the 500 ms debounce).
  const search = (text: string) => {
    clearErrors();
    folderListStore.search(text).catch(showError);
  };

  const loadMore = useCallback(() => {
    folderListStore.loadMore().catch(showError);
  }, [showError]);
  useInfiniteScroll({
    canLoadMore: Boolean(list.next) && !list.failed,
    loading: list.loading,
    loadMore,
    loads: list.page,
  });

  /** Runs a row action with the folder marked busy, then shows the folder as the server has it. */
  const withFolder = async (folder: FolderDto, action: () => Promise<unknown>, done?: string) => {
    setBusyFolders((b) => [...b, folder.id]);
    clearErrors();
    try {
      await action();
      folderListStore.replaceFolder(await rulesApi.folder(folder.id));
      if (done) success(done);
    } catch (error) {
      if (isRuleIssuesError(error)) {
        notify(translate('rules.general.activation_failed'), {
          type: 'error',
          autoHideDuration: RULE_ACTIVATION_SNACKBAR_MS,
        });
      } else {
        showError(error);
      }
    } finally {
      setBusyFolders((b) => b.filter((id) => id !== folder.id));
    }
  };

  const actions: FolderActions = {
    onToggleOpen: (folder) => folderListStore.toggleOpen(folder.id),
    onEditFolder: (folder) => setDialog({ open: true, folder }),
    onTrashFolder: async (folder) => {
      clearErrors();
      try {
        await rulesApi.trashFolder(folder.id);
        folderListStore.removeFolder(folder.id);
        success('rules.general.folder_trashed');
      } catch (error) {
        showError(error);
      }
    },
    onAddRule: (folder) =>
      withFolder(
        folder,
        async () => {
          await rulesApi.addRule(folder.id);
          if (!folderListStore.getState().opened.includes(folder.id)) folderListStore.toggleOpen(folder.id);
        },
        'rules.general.rule_added',
      ),
    onToggleRule: (folder: FolderDto, rule: FolderRuleDto) =>
      withFolder(folder, () => rulesApi.saveRule(rule.id, { is_active: !rule.is_active })),
    onDuplicateRule: (folder, rule) =>
      withFolder(folder, () => rulesApi.duplicateRule(rule.id), 'rules.general.rule_duplicated'),
    onTrashRule: (folder, rule) => withFolder(folder, () => rulesApi.trashRule(rule.id), 'rules.general.rule_trashed'),
  };

  const onSaved = (folder: FolderDto) => {
    const created = !dialog.folder;
    setDialog({ open: false, folder: null });
    if (created) folderListStore.addCreated(folder);
    else folderListStore.replaceFolder(folder);
    success(created ? 'rules.general.folder_created' : 'rules.general.folder_updated');
  };

  const searching = list.search !== '';
  return (
    <Box>
      <PageTitle title="app.page.general" />
      <PageToolbar>
        <SearchBox value={list.search} onSearch={search} label={translate('rules.general.search')} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={!canCreate}
          onClick={() => setDialog({ open: true, folder: null })}
        >
          {translate('rules.general.create_folder')}
        </Button>
        <ToolbarSpacer />
        <TrashLink />
      </PageToolbar>
      <ErrorList errors={errors} />
      <Stack component="ul" spacing={1} sx={{ p: 0, m: 0 }} aria-label={translate('app.page.general')}>
        {list.folders.map((folder) => (
          <FolderNode
            key={folder.id}
            folder={folder}
            open={searching || list.opened.includes(folder.id)}
            busy={busyFolders.includes(folder.id)}
            actions={actions}
          />
        ))}
      </Stack>
      {list.loading ? <LinearProgress sx={{ my: 2 }} aria-label={translate('rules.general.loading')} /> : null}
      {list.loaded && !list.loading && !list.folders.length ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {searching ? translate('rules.general.no_match', { search: list.search }) : translate('rules.general.empty')}
        </Typography>
      ) : null}
      <FolderDialog
        open={dialog.open}
        folder={dialog.folder}
        onClose={() => setDialog({ open: false, folder: null })}
        onSaved={onSaved}
      />
    </Box>
  );
}

export default GeneralPage;

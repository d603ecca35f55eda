/**
 * Trash (/trash and /trash/, docs/screens.md): back arrow, title, search, and the tree of trashed folders
 * (with their rules) and of live folders holding trashed rules. Each trashed row can be restored or
 * deleted after 'Confirm delete?', and has its A and L links.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  LinearProgress,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { FolderRuleDto } from '../../../shared/folders';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { Page } from '../../layout/Page';
import { RowAction, RowActions } from '../../layout/RowActions';
import { SearchBox } from '../../layout/SearchBox';
import type { AppDataProvider } from '../../providers/dataProvider';
import { rowsOf } from '../../providers/offsetPaging';
import { queryKeys } from '../../providers/queryKeys';
import type { TrashFolderDto } from '../../providers/ruleMethods';
import { usePermission } from '../../providers/usePermissions';
import { HistoryButtons } from '../general/HistoryButtons';
import { restoredRuleMessage } from '../general/useFolderActions';
import { useInfiniteScroll } from '../general/useInfiniteScroll';
import { useTrashPages } from './trashPages';
import { formatDateTime } from '../../layout/dateFormat';

type Target = { kind: 'folder'; folder: TrashFolderDto } | { kind: 'rule'; rule: FolderRuleDto };

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '');

function ConfirmDelete({ open, onCancel, onConfirm }: { open: boolean; onCancel: () => void; onConfirm: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="confirm-delete-title">
      <DialogTitle id="confirm-delete-title">{translate('rules.trash.confirm_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('rules.trash.confirm_text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          {translate('rules.trash.confirm_cancel')}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm}>
          {translate('rules.trash.confirm_delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Folder chips and the space before rule names share one width, so every name starts at one line. */
const LEADING_WIDTH = 52;

function TrashRow({
  name,
  detail,
  indent,
  leading,
  onRestore,
  onDelete,
  history,
}: {
  name: string;
  detail: string;
  indent: boolean;
  /** Before the name: the folder's client-type chip (rules leave the space empty). */
  leading?: ReactNode;
  onRestore?: () => void;
  onDelete?: () => void;
  history: { param: 'folder_id' | 'rule_id'; id: number };
}) {
  const translate = useTranslate();
  const allowed = usePermission('delete_rules');
  return (
    <Stack
      direction="row"
      alignItems="center"
      spacing={1}
      sx={{ px: 1, py: 0.5, borderTop: indent ? 1 : 0, borderColor: 'divider' }}
    >
      <Box sx={{ width: LEADING_WIDTH, flexShrink: 0, display: 'flex', justifyContent: 'center' }}>{leading}</Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography noWrap fontWeight={indent ? 400 : 600}>
          {name}
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap component="div">
          {detail}
        </Typography>
      </Box>
      <RowActions label={translate('rules.trash.actions', { name })}>
        {onRestore ? (
          <RowAction
            label={translate('rules.trash.restore', { name })}
            text={translate('rules.trash.restore_button')}
            withIcon
            icon={<RestoreIcon fontSize="small" />}
            disabled={!allowed}
            onClick={onRestore}
          />
        ) : null}
        {onDelete ? (
          <RowAction
            label={translate('rules.trash.delete', { name })}
            text={translate('rules.trash.delete_button')}
            withIcon
            color="error"
            icon={<DeleteForeverIcon fontSize="small" />}
            disabled={!allowed}
            onClick={onDelete}
          />
        ) : null}
        <HistoryButtons param={history.param} id={history.id} name={name} />
      </RowActions>
    </Stack>
  );
}

export function TrashPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { errors, showError, clearErrors } = useErrorList();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const list = useTrashPages(search);
  const folders = rowsOf(list.data);
  const [confirm, setConfirm] = useState<Target | null>(null);

  useEffect(() => {
    if (list.error) showError(list.error);
  }, [list.error, showError]);

  const searchFor = (text: string) => {
    clearErrors();
    setSearch(text);
  };

  useInfiniteScroll({
    canLoadMore: list.hasNextPage && !list.isError,
    loading: list.isFetching,
    loadMore: () => void list.fetchNextPage(),
    loads: list.data?.pages.length ?? 0,
  });

  // A restore or delete changes the trash and the General view: both load again when shown.
  const change = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.trash }),
        queryClient.invalidateQueries({ queryKey: queryKeys.folders }),
        queryClient.invalidateQueries({ queryKey: queryKeys.rules }),
      ]),
  });

  /** Runs a restore or delete, then says it is done: `done` is the message's key, or its key and arguments from the answer. */
  const run = async <T,>(call: () => Promise<T>, done: string | ((answer: T) => [key: string, args: object])) => {
    clearErrors();
    try {
      const answer = (await change.mutateAsync(call)) as T;
      const [key, args] = typeof done === 'string' ? [done, {}] : done(answer);
      notify(translate(key, args), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
    } catch (error) {
      showError(error);
    }
  };

  const confirmed = () => {
    const target = confirm;
    setConfirm(null);
    if (!target) return;
    void run(
      () =>
        target.kind === 'folder'
          ? dataProvider.delete('trash_page', { id: target.folder.id, previousData: target.folder })
          : dataProvider.deleteRuleForever(target.rule.id),
      'rules.trash.deleted',
    );
  };

  return (
    <Page
      title="app.page.trash"
      toolbar={
        <>
          <Tooltip title={translate('rules.editor.back')}>
            <IconButton aria-label={translate('rules.editor.back')} onClick={() => navigate('/')}>
              <ArrowBackIcon />
            </IconButton>
          </Tooltip>
          <Typography variant="h6" component="h1" sx={{ mr: 1 }}>
            {translate('rules.trash.title')}
          </Typography>
          <SearchBox value={search} onSearch={searchFor} label={translate('rules.trash.search')} />
        </>
      }
    >
      <ErrorList errors={errors} />
      <Stack component="ul" spacing={1} sx={{ p: 0, m: 0 }} aria-label={translate('rules.trash.title')}>
        {folders.map((folder) => {
          const account = folder.meta_ad_account?.account_name ?? '';
          return (
            <Paper
              key={folder.id}
              variant="outlined"
              component="li"
              sx={{ listStyle: 'none', overflow: 'hidden' }}
              aria-label={folder.name}
              data-testid={`trash-folder-${folder.id}`}
            >
              <TrashRow
                name={folder.name}
                detail={
                  folder.is_deleted
                    ? [account, when(folder.deleted_at)].filter(Boolean).join(' · ')
                    : [account, translate('rules.trash.live_folder')].filter(Boolean).join(' · ')
                }
                indent={false}
                leading={
                  <Chip
                    size="small"
                    label={folder.client_type}
                    color={folder.is_deleted ? 'default' : 'primary'}
                    variant={folder.is_deleted ? 'filled' : 'outlined'}
                    sx={{ width: LEADING_WIDTH }}
                  />
                }
                onRestore={
                  folder.is_deleted
                    ? () => run(() => dataProvider.restoreFolder(folder.id), 'rules.trash.restored')
                    : undefined
                }
                onDelete={folder.is_deleted ? () => setConfirm({ kind: 'folder', folder }) : undefined}
                history={{ param: 'folder_id', id: folder.id }}
              />
              {folder.rules.map((rule) => (
                <TrashRow
                  key={rule.id}
                  name={rule.name}
                  detail={[account, when(rule.deleted_at)].filter(Boolean).join(' · ')}
                  indent
                  onRestore={() =>
                    run(
                      () => dataProvider.restoreRule(rule.id),
                      (restored) => restoredRuleMessage(restored, rule.name),
                    )
                  }
                  onDelete={() => setConfirm({ kind: 'rule', rule })}
                  history={{ param: 'rule_id', id: rule.id }}
                />
              ))}
            </Paper>
          );
        })}
      </Stack>
      {list.isFetching ? <LinearProgress sx={{ my: 2 }} /> : null}
      {list.data && !list.isFetching && !folders.length ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {search ? translate('rules.trash.no_match', { search }) : translate('rules.trash.empty')}
        </Typography>
      ) : null}
      <ConfirmDelete open={confirm !== null} onCancel={() => setConfirm(null)} onConfirm={confirmed} />
    </Page>
  );
}

export default TrashPage;

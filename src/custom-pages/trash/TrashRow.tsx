/**
 * One row of the trash: what leads it (a folder's chip), its name and detail, and its actions —
 * Restore and Delete where it offers them (for those allowed to delete rules), and its A and L links.
 */
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { RowAction, RowActions } from '../../layout/RowActions';
import { usePermission } from '../../providers/usePermissions';
import { HistoryButtons } from '../general/HistoryButtons';

/** Folder chips and the space before rule names share one width, so every name starts at one line. */
export const LEADING_WIDTH = 52;

export function TrashRow({
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

/**
 * A folder of the trash with its trashed rules: a trashed folder (its chip filled, trashed when) can be
 * restored or deleted; a live folder (its chip outlined, said to be live) only holds trashed rules.
 */
import { Chip, Paper } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FolderRuleDto } from '../../../shared/folders';
import { formatDateTime } from '../../layout/dateFormat';
import type { TrashFolderDto } from '../../providers/ruleMethods';
import { LEADING_WIDTH, TrashRow } from './TrashRow';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '');

/** The parts of a row's detail that are there, joined by a middle dot. */
const detailOf = (...parts: string[]) => parts.filter(Boolean).join(' · ');

function FolderChip({ folder }: { folder: TrashFolderDto }) {
  return (
    <Chip
      size="small"
      label={folder.client_type}
      color={folder.is_deleted ? 'default' : 'primary'}
      variant={folder.is_deleted ? 'filled' : 'outlined'}
      sx={{ width: LEADING_WIDTH }}
    />
  );
}

export function TrashFolderItem({
  folder,
  onRestoreFolder,
  onDeleteFolder,
  onRestoreRule,
  onDeleteRule,
}: {
  folder: TrashFolderDto;
  onRestoreFolder: (folder: TrashFolderDto) => void;
  onDeleteFolder: (folder: TrashFolderDto) => void;
  onRestoreRule: (rule: FolderRuleDto) => void;
  onDeleteRule: (rule: FolderRuleDto) => void;
}) {
  const translate = useTranslate();
  const account = folder.meta_ad_account?.account_name ?? '';
  return (
    <Paper
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
            ? detailOf(account, when(folder.deleted_at))
            : detailOf(account, translate('rules.trash.live_folder'))
        }
        indent={false}
        leading={<FolderChip folder={folder} />}
        onRestore={folder.is_deleted ? () => onRestoreFolder(folder) : undefined}
        onDelete={folder.is_deleted ? () => onDeleteFolder(folder) : undefined}
        history={{ param: 'folder_id', id: folder.id }}
      />
      {folder.rules.map((rule) => (
        <TrashRow
          key={rule.id}
          name={rule.name}
          detail={detailOf(account, when(rule.deleted_at))}
          indent
          onRestore={() => onRestoreRule(rule)}
          onDelete={() => onDeleteRule(rule)}
          history={{ param: 'rule_id', id: rule.id }}
        />
      ))}
    </Paper>
  );
}

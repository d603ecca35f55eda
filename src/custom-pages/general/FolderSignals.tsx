/**
 * What the general view flags: a folder's ad account health (runs held while a problem lasts; the
 * badge links to the health panel), stored webinar credentials the server's key cannot read, and
 * an active rule that works against another of its folder.
 */
import KeyOffOutlinedIcon from '@mui/icons-material/KeyOffOutlined';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import SyncProblemIcon from '@mui/icons-material/SyncProblem';
import { Chip, Tooltip } from '@mui/material';
import type { MouseEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { FolderDto, FolderRuleDto } from '../../domain/folders';

const stop = (e: MouseEvent) => e.stopPropagation();

export function FolderHealthBadge({ folder }: { folder: FolderDto }) {
  const translate = useTranslate();
  const problems = folder.health ?? [];
  if (!problems.length) return null;
  const held = problems.some((p) => p.state === 'problem');
  const text = problems.map((p) => `${translate(`judging.health.checks.${p.check}`)}: ${p.detail}`).join(' · ');
  return (
    <Tooltip title={text}>
      <Chip
        size="small"
        color={held ? 'error' : 'warning'}
        icon={<SyncProblemIcon />}
        label={translate(held ? 'judging.health.badge' : 'judging.health.badge_warning')}
        component={RouterLink}
        to="/health"
        clickable
        onClick={stop}
      />
    </Tooltip>
  );
}

/** The stored credentials cannot be read with the server's key: they need re-entry in Edit folder. */
export function FolderCredentialsFlag({ folder }: { folder: FolderDto }) {
  const translate = useTranslate();
  if (!folder.extension?.credentials_error) return null;
  return (
    <Tooltip title={translate('rules.general.credentials_needs_reentry_hint')}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<KeyOffOutlinedIcon />}
        label={translate('rules.general.credentials_needs_reentry')}
      />
    </Tooltip>
  );
}

export function RuleConflictFlag({ rule }: { rule: FolderRuleDto }) {
  const translate = useTranslate();
  if (!rule.conflicts?.length) return null;
  return (
    <Tooltip title={rule.conflicts.join(' · ')}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<ReportProblemOutlinedIcon />}
        label={translate('judging.conflicts_title', { smart_count: rule.conflicts.length })}
      />
    </Tooltip>
  );
}

/**
 * What the general view flags: a folder's ad account health (runs held while a problem lasts; the
 * badge links to the health panel) and an active rule that works against another of its folder.
 */
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

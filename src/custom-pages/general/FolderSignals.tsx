/**
 * What the general view flags: a folder's ad account health (runs held while a problem lasts; the
 * badge links to the health panel), stored webinar credentials the server's key cannot read, an
 * active rule that works against another of its folder, and one that works against rules of other
 * folders on the same ad account.
 */
import KeyOffOutlinedIcon from '@mui/icons-material/KeyOffOutlined';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import SyncProblemIcon from '@mui/icons-material/SyncProblem';
import { Chip, Tooltip } from '@mui/material';
import type { MouseEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { FolderDto, FolderRuleDto } from '../../../shared/folders';

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

/** The rule's conflicts: with rules of its folder, and with rules of other folders on its ad account. */
export function RuleConflictFlag({ rule }: { rule: FolderRuleDto }) {
  return (
    <>
      <OwnFolderConflictFlag rule={rule} />
      <OtherFolderConflictFlag rule={rule} />
    </>
  );
}

function OwnFolderConflictFlag({ rule }: { rule: FolderRuleDto }) {
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

/**
 * The rule works against rules of other folders on its ad account: the chip names the other rule and
 * its folder and opens that rule when there is one; the tooltip says how each works against it.
 */
function OtherFolderConflictFlag({ rule }: { rule: FolderRuleDto }) {
  const translate = useTranslate();
  const conflicts = rule.other_folder_conflicts ?? [];
  if (!conflicts.length) return null;
  const otherRules = new Set(conflicts.map((c) => c.other_rule_id));
  const first = conflicts[0]!;
  const one = otherRules.size === 1;
  const label = one
    ? translate('conflicts.with_rule_in_folder', { rule: first.other_rule_name, folder: first.other_folder_name })
    : translate('conflicts.other_folders_flag', { smart_count: otherRules.size });
  return (
    // The chip is named by its label (the other rule and folder); the tooltip describes how.
    <Tooltip title={conflicts.map((c) => c.detail).join(' · ')} describeChild>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<ReportProblemOutlinedIcon />}
        label={label}
        // Leaves the rule's name its room: the label is cut short (the tooltip and editor say it whole).
        sx={{ minWidth: 0, maxWidth: { xs: '40%', sm: '50%' } }}
        {...(one
          ? { component: RouterLink, to: `/edit-rule/${first.other_rule_id}`, clickable: true, onClick: stop }
          : {})}
      />
    </Tooltip>
  );
}

/**
 * What a folder of the agency overview shows, the same in the desktop's table and the phone's cards:
 * its name (a link to it in General), a chip per reason it needs a person, a period's numbers, its
 * CPL threshold, what its rules did today, and its Activity.
 */
import BoltIcon from '@mui/icons-material/Bolt';
import { Box, Button, Chip, Link, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { AttentionReason, OverviewPeriod, OverviewRow } from '../../../shared/overview';
import { usePermission } from '../../providers/usePermissions';
import { formatMoney } from '../../layout/numberFormat';
import { useGeneralView } from '../general/useGeneralView';
import { reasonHint, reasonLabel } from './reasonText';

/** The folder's name: opens General with the folder found and open. */
export function FolderLink({ row, variant = 'body2' }: { row: OverviewRow; variant?: 'body2' | 'subtitle1' }) {
  const translate = useTranslate();
  const [, updateGeneralView] = useGeneralView();
  const { id, name } = row.folder;
  return (
    <Box>
      <Link
        component={RouterLink}
        to="/"
        variant={variant}
        sx={{ fontWeight: 500 }}
        title={translate('overview.open_folder', { name })}
        onClick={() => updateGeneralView({ search: name, opened: [id], scrollY: 0 })}
      >
        {name}
      </Link>
      <Typography variant="caption" color="text.secondary" component="div">
        {row.ad_account.account_name} · {row.folder.client_type}
      </Typography>
    </Box>
  );
}

const urgent = (reason: AttentionReason) =>
  reason.kind === 'held_runs' || (reason.kind === 'health' && reason.state === 'problem');

/** Where a reason's chip leads: the oldest held run in the rule editor, the health panel, or nowhere. */
function reasonLink(row: OverviewRow, reason: AttentionReason): string | null {
  if (reason.kind === 'held_runs' && row.held_runs.oldest)
    return `/edit-rule/${row.held_runs.oldest.rule_id}?run=${row.held_runs.oldest.run_id}`;
  if (reason.kind === 'health') return '/health';
  return null;
}

export function ReasonChips({ row }: { row: OverviewRow }) {
  const translate = useTranslate();
  const currency = row.ad_account.currency;
  const reasons = row.needs_attention.reasons;
  if (!reasons.length) return null;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {reasons.map((reason) => {
        const to = reasonLink(row, reason);
        const label = reasonLabel(translate, reason, currency);
        const chip = to ? (
          <Chip
            size="small"
            color={urgent(reason) ? 'error' : 'warning'}
            label={label}
            component={RouterLink}
            to={to}
            clickable
          />
        ) : (
          <Chip size="small" color={urgent(reason) ? 'error' : 'warning'} label={label} />
        );
        return (
          <Tooltip
            key={`${reason.kind}-${reason.kind === 'health' ? reason.check : ''}`}
            describeChild
            title={reasonHint(translate, reason, currency, row.held_runs.turn_offs)}
          >
            {chip}
          </Tooltip>
        );
      })}
    </Stack>
  );
}

/** A period's spend over its leads and cost per lead ('Not read yet' before the first reading). */
export function PeriodFigures({ row, period }: { row: OverviewRow; period: 'today' | 'week' }) {
  const translate = useTranslate();
  const figures: OverviewPeriod = row[period];
  const currency = row.ad_account.currency;
  if (figures.spend === null)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('overview.period.not_read')}
      </Typography>
    );
  const over = row.cpl_threshold !== null && figures.cpl !== null && figures.cpl > row.cpl_threshold;
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {formatMoney(figures.spend, currency)}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate('overview.period.leads', { smart_count: figures.leads ?? 0 })}
        {figures.cpl !== null ? (
          <>
            {' · '}
            <Box component="span" sx={over ? { color: 'error.main', fontWeight: 500 } : undefined}>
              {translate('overview.period.cpl', { cpl: formatMoney(figures.cpl, currency) })}
            </Box>
          </>
        ) : null}
      </Typography>
    </Box>
  );
}

export function ThresholdText({ row }: { row: OverviewRow }) {
  const translate = useTranslate();
  return row.cpl_threshold === null ? (
    <Typography variant="body2" color="text.secondary">
      {translate('overview.threshold_none')}
    </Typography>
  ) : (
    <Typography variant="body2">{formatMoney(row.cpl_threshold, row.ad_account.currency)}</Typography>
  );
}

/** How many rules acted today and how many things they changed. */
export function ActedToday({ row }: { row: OverviewRow }) {
  const translate = useTranslate();
  if (!row.actions_today)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('overview.acted.none')}
      </Typography>
    );
  return (
    <Box>
      <Typography variant="body2">
        {translate('overview.acted.rules', { smart_count: row.rules_acted_today })}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate('overview.acted.actions', { smart_count: row.actions_today })}
      </Typography>
    </Box>
  );
}

/** Whether the signed-in user may open the Activity (the folder's Activity link). */
export const useMayOpenActivity = () => usePermission({ resource: 'activity', action: 'list' });

/** The folder's rule activity (/activity?folder_id=…), for those who may read it. */
export function ActivityLink({ row }: { row: OverviewRow }) {
  const translate = useTranslate();
  return (
    <Button
      size="small"
      component={RouterLink}
      to={`/activity?folder_id=${row.folder.id}`}
      startIcon={<BoltIcon />}
      aria-label={translate('overview.activity_of', { name: row.folder.name })}
    >
      {translate('overview.col.activity')}
    </Button>
  );
}

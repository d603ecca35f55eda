/**
 * An open folder's lead outcome figures (docs/screens.md, general view): registrations, attendees,
 * show-up rate and cost per attendee summed over its ad account's campaigns, N/A before any webinar
 * date happened, then the leads that reached each CRM stage with what each cost. Read when the
 * folder opens, by those who may read the campaigns (add_edit_campaigns, as the server checks).
 */
import { Box, Tooltip, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { FolderOutcomes as Outcomes } from '../../../shared/folderOutcomes';
import type { FolderDto } from '../../../shared/folders';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';
import { formatMoney, formatPercent, NOT_AVAILABLE } from '../../layout/numberFormat';

const count = (value: number | null) => (value === null ? NOT_AVAILABLE : value.toLocaleString('en-US'));

function useFigures(outcomes: Outcomes): { label: string; value: string }[] {
  const translate = useTranslate();
  const money = (value: number | null) => formatMoney(value, outcomes.currency || 'USD');
  const t = (key: string) => translate(`lead_outcomes.totals.${key}`);
  return [
    { label: t('registrations'), value: count(outcomes.registrations) },
    { label: t('attendees'), value: count(outcomes.attendees) },
    {
      label: t('show_up'),
      value: formatPercent(outcomes.show_up_rate === null ? null : outcomes.show_up_rate * 100),
    },
    { label: t('cost_per_attendee'), value: money(outcomes.cost_per_attendee) },
    ...outcomes.stages.map((s) => ({
      label: translate(`lead_outcomes.stages.${s.stage}`, { _: s.stage }),
      value:
        s.cost === null
          ? count(s.reached)
          : translate('lead_outcomes.totals.stage_value', { reached: count(s.reached), cost: money(s.cost) }),
    })),
  ];
}

function Figures({ outcomes, label }: { outcomes: Outcomes; label: string }) {
  const translate = useTranslate();
  const figures = useFigures(outcomes);
  return (
    <Tooltip title={translate('lead_outcomes.totals.hint')} placement="bottom-start">
      <Box
        component="dl"
        aria-label={label}
        sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2.5, rowGap: 0.25, m: 0 }}
      >
        {figures.map(({ label: term, value }) => (
          <Box key={term} sx={{ display: 'flex', alignItems: 'baseline', gap: 0.75, whiteSpace: 'nowrap' }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {term}
            </Typography>
            <Typography
              component="dd"
              variant="body2"
              sx={{ m: 0, fontWeight: 600 }}
              color={value === NOT_AVAILABLE ? 'text.secondary' : undefined}
            >
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Tooltip>
  );
}

export function FolderOutcomes({ folder, indent }: { folder: FolderDto; indent: { xs: string; sm: string } }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const allowed = usePermission('add_edit_campaigns');
  const outcomes = useQuery({
    queryKey: queryKeys.folderOutcomes(folder.id),
    queryFn: ({ signal }) => dataProvider.getFolderOutcomes(folder.id, signal),
    enabled: allowed,
    retry: false,
    // The outcome sync rewrites them hourly; folders opened by a search share one read a while.
    staleTime: 5 * 60_000,
  });
  if (!allowed) return null;
  const label = translate('lead_outcomes.totals.label', { name: folder.name });
  return (
    <Box sx={{ pl: indent, pr: 1, py: 0.75, borderTop: 1, borderColor: 'divider' }}>
      {outcomes.data ? (
        <Figures outcomes={outcomes.data} label={label} />
      ) : (
        <Typography variant="caption" color="text.secondary" role={outcomes.isError ? 'alert' : 'status'}>
          {translate(outcomes.isError ? 'lead_outcomes.totals.failed' : 'lead_outcomes.totals.loading')}
        </Typography>
      )}
    </Box>
  );
}

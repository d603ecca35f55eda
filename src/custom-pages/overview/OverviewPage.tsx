/**
 * The agency overview (/overview, docs/screens.md): is anything on fire? Every folder, those that
 * need a person first — held runs waiting and health problems, then a cost per lead over the
 * rules' threshold, then spend with no leads, then the biggest spenders — with its spend and leads
 * today and over the last 7 days, its CPL threshold and what its rules did today. A table on a
 * desktop, a card per folder on a phone; each leads to the folder in General, its Activity, its
 * oldest held run and the health panel. Read again every few minutes while open.
 */
import RefreshIcon from '@mui/icons-material/Refresh';
import { Button, LinearProgress, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { Page } from '../../layout/Page';
import { ToolbarSpacer } from '../../layout/PageToolbar';
import { AccessDeniedPage } from '../../layout/ProblemPage';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';
import { OverviewCards } from './OverviewCards';
import { OverviewTable } from './OverviewTable';

/** How often the open screen reads the overview again: the health check reads the accounts every 15 minutes. */
const REFRESH_MS = 5 * 60_000;

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

function Overview() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const { errors, showError, clearErrors } = useErrorList();
  const overview = useQuery({
    queryKey: queryKeys.overview,
    queryFn: ({ signal }) => dataProvider.getOverview(signal),
    refetchInterval: REFRESH_MS,
    retry: false,
  });

  useEffect(() => {
    if (overview.error) showError(overview.error);
    else clearErrors();
  }, [overview.error, showError, clearErrors]);

  const rows = overview.data?.results ?? [];
  const needing = rows.filter((row) => row.needs_attention.score > 0).length;
  return (
    <Page
      title="overview.title"
      toolbar={
        <>
          {overview.data ? (
            <Typography component="p" variant="subtitle1" sx={{ fontWeight: 500 }} role="status">
              {needing
                ? translate('overview.summary', { smart_count: needing })
                : rows.length
                  ? translate('overview.all_quiet')
                  : translate('overview.empty')}
            </Typography>
          ) : null}
          <ToolbarSpacer />
          {overview.data ? (
            <Typography variant="caption" color="text.secondary">
              {translate('overview.generated_at', { time: timeOf(overview.data.generated_at) })}
            </Typography>
          ) : null}
          <Button
            startIcon={<RefreshIcon />}
            onClick={() => void overview.refetch()}
            disabled={overview.isFetching}
            variant="outlined"
          >
            {translate('overview.refresh')}
          </Button>
        </>
      }
    >
      <ErrorList errors={errors} />
      {overview.isFetching ? <LinearProgress sx={{ mb: 1 }} aria-label={translate('overview.title')} /> : null}
      {rows.length ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {translate('overview.help')}
          </Typography>
          {phone ? <OverviewCards rows={rows} /> : <OverviewTable rows={rows} />}
        </>
      ) : null}
    </Page>
  );
}

/** For those who read folders and rules (read_rules, as the server asks); others are told they may not. */
export default function OverviewPage() {
  return usePermission('read_rules') ? <Overview /> : <AccessDeniedPage />;
}

/**
 * The impact report (/impact?scope=agency|folder|rule&id=&days=): what the rules did and what it was
 * worth over the last 7 or 30 days — totals, spend avoided and turn-offs per day, how the numbers are
 * estimated, every turn-off, the budget changes with their cost per lead around them, and a CSV
 * export. Reached from the I button of folder and rule rows and
 * from the rule editor.
 */
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Stack,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { IMPACT_SPANS } from '../../../shared/backtest';
import type { ImpactReport } from '../../../shared/impact';
import { BackButton, RegionTable } from '../../layout/list';
import { Page } from '../../layout/Page';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import type { ImpactQuery } from '../../providers/ruleMethods';
import { DailyBars, formatMoney, Totals } from './DailyBars';
import { ImpactBudgetChanges } from './ImpactBudgetChanges';
import { formatDateTime, formatDay } from '../../layout/dateFormat';

function queryOf(params: URLSearchParams): ImpactQuery {
  const scope = params.get('scope');
  const id = Number(params.get('id'));
  const days = Number(params.get('days')) || 7;
  if ((scope === 'folder' || scope === 'rule') && Number.isInteger(id) && id > 0) return { scope, id, days };
  return { scope: 'agency', days };
}

/** "Impact of Harbor Wealth" for a folder or a rule; the whole agency's reads as such. */
const impactTitle = (translate: (key: string, options?: object) => string, scope: ImpactReport['scope']) =>
  scope.kind === 'agency' ? translate('impact.title_agency') : translate('impact.title', { name: scope.name });

function ImpactTable({ report }: { report: ImpactReport }) {
  const translate = useTranslate();
  const money = (n: number) => formatMoney(n, report.currency);
  if (!report.pauses.length) return <Typography>{translate('impact.none')}</Typography>;
  return (
    <RegionTable label={impactTitle(translate, report.scope)} maxHeight={560}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('impact.col.when')}</TableCell>
          <TableCell>{translate('impact.col.object')}</TableCell>
          <TableCell>{translate('impact.col.rule')}</TableCell>
          <TableCell align="right">{translate('impact.col.off')}</TableCell>
          <TableCell align="right">{translate('impact.col.avoided')}</TableCell>
          <TableCell>{translate('impact.col.false_pause')}</TableCell>
          <TableCell align="right">{translate('impact.col.leads_back')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {report.pauses.map((p) => (
          <TableRow key={`${p.at}|${p.object_id}|${p.rule_id}`}>
            <TableCell data-label={translate('impact.col.when')} sx={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(p.at)}
            </TableCell>
            <TableCell data-label={translate('impact.col.object')}>
              <Typography variant="body2">{p.name}</Typography>
              <Typography variant="caption" color="text.secondary">
                {p.object_id}
              </Typography>
            </TableCell>
            <TableCell data-label={translate('impact.col.rule')}>
              <Typography variant="body2">{p.rule_name}</Typography>
              <Typography variant="caption" color="text.secondary">
                {p.folder_name}
              </Typography>
            </TableCell>
            <TableCell data-label={translate('impact.col.off')} align="right">
              {p.hours_off}
            </TableCell>
            <TableCell data-label={translate('impact.col.avoided')} align="right">
              <Typography variant="body2">{money(p.spend_avoided)}</Typography>
              {p.spend_rate !== null ? (
                <Typography variant="caption" color="text.secondary">
                  {translate('impact.rate', { rate: money(p.spend_rate), hours: p.hours_off })}
                  {p.budget_cap !== null && p.budget_cap < p.spend_rate * p.hours_off
                    ? `, ${translate('impact.capped')}`
                    : ''}
                </Typography>
              ) : null}
            </TableCell>
            <TableCell data-label={p.false_pause ? translate('impact.col.false_pause') : undefined}>
              {p.false_pause ? (
                <Chip size="small" color="warning" label={translate(`impact.false_pause.${p.false_pause}`)} />
              ) : null}
            </TableCell>
            <TableCell data-label={p.leads_brought_back ? translate('impact.col.leads_back') : undefined} align="right">
              {p.leads_brought_back || ''}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </RegionTable>
  );
}

export function ImpactPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const [exportProblems, setExportProblems] = useState<string[]>([]);
  const report = useQuery({
    queryKey: ['impact', query.scope, query.id ?? null, query.days],
    queryFn: ({ signal }) => dataProvider.getImpact(query, signal),
    retry: false,
  });
  const setDays = (days: number) => {
    const next = new URLSearchParams(params);
    next.set('days', String(days));
    setParams(next, { replace: true });
  };
  const exportCsv = async () => {
    setExportProblems([]);
    try {
      const csv = await dataProvider.getImpactCsv(query);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `impact-${query.scope}${query.id ? `-${query.id}` : ''}-${query.days}d.csv`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setExportProblems(errorMessages(error));
    }
  };
  const data = report.data;
  const money = (n: number) => formatMoney(n, data?.currency ?? 'USD');
  return (
    <Page
      title="app.page.impact"
      toolbar={
        <>
          <BackButton />
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {data ? impactTitle(translate, data.scope) : translate('impact.title', { name: '…' })}
          </Typography>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={query.days}
            onChange={(_e, value: number | null) => value && setDays(value)}
          >
            {IMPACT_SPANS.map((span) => (
              <ToggleButton key={span} value={span}>
                {translate('impact.days', { days: span })}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv} disabled={!data}>
            {translate('impact.export')}
          </Button>
        </>
      }
    >
      <Stack spacing={2}>
        {report.isPending ? <LinearProgress /> : null}
        {report.error || exportProblems.length ? (
          <Alert severity="error">
            {[...(report.error ? errorMessages(report.error) : []), ...exportProblems].map((m) => (
              <div key={m}>{m}</div>
            ))}
          </Alert>
        ) : null}
        {data ? (
          <>
            <Totals
              items={[
                { label: translate('impact.totals.turn_offs'), value: String(data.totals.turn_offs) },
                { label: translate('impact.totals.spend_avoided'), value: money(data.totals.spend_avoided) },
                {
                  label: translate('impact.totals.false_pauses'),
                  value: String(data.totals.false_pauses),
                  warn: data.totals.false_pauses > 0,
                },
                { label: translate('impact.totals.revives'), value: String(data.totals.revives) },
                { label: translate('impact.totals.undos'), value: String(data.totals.undos) },
                { label: translate('impact.totals.leads_brought_back'), value: String(data.totals.leads_brought_back) },
                ...(data.totals.budget_added || data.totals.budget_removed
                  ? [
                      { label: translate('impact.budgets.added'), value: `+${money(data.totals.budget_added ?? 0)}` },
                      {
                        label: translate('impact.budgets.removed'),
                        value: `−${money(data.totals.budget_removed ?? 0)}`,
                      },
                    ]
                  : []),
              ]}
            />
            <Card variant="outlined">
              <CardContent>
                <Typography variant="subtitle2" component="h2">
                  {translate('impact.chart')}
                </Typography>
                <DailyBars
                  summary={data.by_day
                    .map((d) => `${formatDay(d.date)}: ${money(d.spend_avoided)}, ${d.pauses}`)
                    .join('; ')}
                  legend={{ bar: translate('impact.legend.bar'), count: translate('impact.legend.count') }}
                  days={data.by_day.map((d) => ({
                    date: d.date,
                    value: d.spend_avoided,
                    part: 0,
                    label: d.pauses ? String(d.pauses) : '',
                    title: translate('impact.day_title', {
                      date: formatDay(d.date),
                      avoided: money(d.spend_avoided),
                      turn_offs: translate('impact.turn_offs', { smart_count: d.pauses }),
                    }),
                  }))}
                />
              </CardContent>
            </Card>
            <Box component="section" aria-label={translate('impact.how')}>
              <Typography variant="subtitle2" component="h2">
                {translate('impact.how')}
              </Typography>
              {data.method.map((line) => (
                <Typography key={line} variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {line}
                </Typography>
              ))}
            </Box>
            <ImpactTable report={data} />
            <ImpactBudgetChanges report={data} />
          </>
        ) : null}
      </Stack>
    </Page>
  );
}

export default ImpactPage;

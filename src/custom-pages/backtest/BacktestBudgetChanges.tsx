/**
 * A budget rule's backtest: the daily budget it would have added and removed, how often each
 * ceiling cut a change, a note that the budgets start as they are now, and the table of its changes
 * hour by hour — when, the ad set or campaign, its daily budget before → after, what the rule asked,
 * the ceiling that cut it, the daily delta and the condition values it acted on (as a run record's
 * budget changes read).
 */
import { Box, Chip, Stack, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestResult } from '../../../shared/backtest';
import { signedMoney } from '../../layout/runs/runText';
import { RegionTable } from '../../layout/list';
import { formatMoney, Totals } from '../impact/DailyBars';
import { formatDateTime } from '../../layout/dateFormat';

export function BacktestBudgetChanges({ result }: { result: BacktestResult }) {
  const translate = useTranslate();
  const changes = result.budget_changes;
  if (!changes) return null;
  const t = (key: string, options?: Record<string, unknown>) => translate(`backtest.budgets.${key}`, options);
  const money = (n: number) => formatMoney(n, result.account.currency);
  const when = (iso: string) => formatDateTime(iso, result.timezone);
  const totals = result.budget_totals;
  const ceilings = Object.entries(result.ceilings_met ?? {});
  return (
    <Box component="section" aria-label={t('title')}>
      <Stack spacing={1}>
        <Typography variant="subtitle2" component="h3">
          {t('title')}
        </Typography>
        {totals ? (
          <Totals
            items={[
              { label: t('added'), value: `+${money(totals.added)}` },
              { label: t('removed'), value: `−${money(totals.removed)}` },
              { label: t('changes'), value: String(totals.changes) },
              ...(totals.held ? [{ label: t('held'), value: String(totals.held), warn: true }] : []),
            ]}
          />
        ) : null}
        {result.budgets_from === 'now' ? (
          <Typography variant="body2" color="text.secondary">
            {t('from_now')}
          </Typography>
        ) : null}
        {ceilings.length ? (
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center" aria-label={t('ceilings')}>
            <Typography variant="body2">{t('ceilings')}</Typography>
            {ceilings.map(([name, count]) => (
              <Chip
                key={name}
                size="small"
                variant="outlined"
                label={`${translate(`backtest.budgets.ceiling.${name}`, { _: name })}: ${count}`}
              />
            ))}
          </Stack>
        ) : null}
        {result.budget_changes_count !== undefined && result.budget_changes_count > changes.length ? (
          <Typography variant="body2" color="text.secondary">
            {t('listed_first', { listed: changes.length, count: result.budget_changes_count })}
          </Typography>
        ) : null}
        {changes.length === 0 ? (
          <Typography>{t('none')}</Typography>
        ) : (
          <RegionTable label={t('table')} maxHeight={480}>
            <TableHead>
              <TableRow>
                <TableCell>{t('col.when')}</TableCell>
                <TableCell>{t('col.object')}</TableCell>
                <TableCell>{t('col.budget')}</TableCell>
                <TableCell>{t('col.asked')}</TableCell>
                <TableCell>{t('col.cut')}</TableCell>
                <TableCell align="right">{t('col.delta')}</TableCell>
                <TableCell>{t('col.conditions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((c) => (
                <TableRow key={`${c.at}|${c.object_id}|${c.action}`} data-testid={`backtest-budget-${c.object_id}`}>
                  <TableCell data-label={t('col.when')} sx={{ whiteSpace: 'nowrap' }}>
                    {when(c.at)}
                  </TableCell>
                  <TableCell data-label={t('col.object')} sx={{ minWidth: 160, overflowWrap: 'anywhere' }}>
                    <Typography variant="body2">{c.name}</Typography>
                    <Typography variant="caption" color="text.secondary" component="div">
                      {[translate(`budgets.changes.actions.${c.action}`), c.campaign_name].filter(Boolean).join(' · ')}
                    </Typography>
                    {c.held ? <Chip size="small" label={t('held_flag')} /> : null}
                  </TableCell>
                  <TableCell data-label={t('col.budget')} sx={{ whiteSpace: 'nowrap' }}>
                    {t('per_day', { from: money(c.before), to: money(c.allowed) })}
                  </TableCell>
                  <TableCell data-label={t('col.asked')} sx={{ whiteSpace: 'nowrap' }}>
                    {money(c.asked)}
                  </TableCell>
                  <TableCell data-label={t('col.cut')} sx={{ minWidth: 140 }}>
                    {c.cut ?? t('not_cut')}
                  </TableCell>
                  <TableCell data-label={t('col.delta')} align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                    {signedMoney(c.daily_delta)}
                  </TableCell>
                  <TableCell data-label={t('col.conditions')}>
                    {c.conditions.length
                      ? c.conditions.map((v) => (
                          <Typography key={v.text} variant="body2">
                            {v.shown}
                          </Typography>
                        ))
                      : Object.entries(c.reason).map(([key, value]) => (
                          <Typography key={key} variant="body2">{`${key}: ${value}`}</Typography>
                        ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </RegionTable>
        )}
      </Stack>
    </Box>
  );
}

/**
 * The impact report's budget changes: each done raise, lower or roll-back of the period — when, the
 * ad set or campaign, its rule, the daily budget before → after, the daily delta, and the object's
 * cost per lead in the days before → after it (N/A when the history cannot tell). Nothing when the
 * period had none.
 */
import { Box, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ImpactReport } from '../../../shared/impact';
import { RegionTable } from '../../layout/list';
import { signedMoney } from '../../layout/runs/runText';
import { formatMoney } from './DailyBars';
import { formatDateTime } from '../../layout/dateFormat';

export function ImpactBudgetChanges({ report }: { report: ImpactReport }) {
  const translate = useTranslate();
  const changes = report.budget_changes ?? [];
  if (!changes.length) return null;
  const t = (key: string, options?: Record<string, unknown>) => translate(`impact.budgets.${key}`, options);
  const money = (n: number) => formatMoney(n, report.currency);
  const cpl = (n: number | null) => (n === null ? t('na') : money(n));
  return (
    <Box component="section" aria-label={t('title')}>
      <Typography variant="subtitle2" component="h2">
        {t('title')}
      </Typography>
      <RegionTable label={t('table')} maxHeight={480}>
        <TableHead>
          <TableRow>
            <TableCell>{t('col.when')}</TableCell>
            <TableCell>{t('col.object')}</TableCell>
            <TableCell>{t('col.rule')}</TableCell>
            <TableCell>{t('col.budget')}</TableCell>
            <TableCell align="right">{t('col.delta')}</TableCell>
            <TableCell>{t('col.cpl')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {changes.map((c) => (
            <TableRow key={`${c.at}|${c.object_id}|${c.action}`} data-testid={`impact-budget-${c.object_id}`}>
              <TableCell data-label={t('col.when')} sx={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(c.at)}
              </TableCell>
              <TableCell data-label={t('col.object')}>
                <Typography variant="body2">{c.name}</Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {[translate(`budgets.changes.actions.${c.action}`), c.object_id].join(' · ')}
                </Typography>
              </TableCell>
              <TableCell data-label={t('col.rule')}>
                <Typography variant="body2">{c.rule_name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {c.folder_name}
                </Typography>
              </TableCell>
              <TableCell data-label={t('col.budget')} sx={{ whiteSpace: 'nowrap' }}>
                {`${money(c.before)} → ${money(c.after)}`}
              </TableCell>
              <TableCell data-label={t('col.delta')} align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                {signedMoney(c.daily_delta)}
              </TableCell>
              <TableCell data-label={t('col.cpl')} sx={{ whiteSpace: 'nowrap' }}>
                {t('cpl', { before: cpl(c.cpl_before), after: cpl(c.cpl_after) })}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </RegionTable>
    </Box>
  );
}

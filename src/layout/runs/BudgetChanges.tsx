/**
 * A rule's budget changes as Preview and a run record show them: the money line ("+$1,240.00/day
 * across 14 ad sets") in bold, then a table — each ad set or campaign, its daily budget now → what
 * the folder's ceilings allow, what the rule asked, the ceiling that cut it, and the daily spend the
 * change adds or removes. On a phone each change is one cell, its figures on lines beneath its
 * name, so the table fits the screen (a table wider than the screen would also widen a run record
 * around it, its held alert and Approve button included).
 */
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BudgetChangeDto, MoneyAtRiskDto } from '../../../shared/budgetChanges';
import { useNarrowScreen } from '../RowActions';
import { signedMoney } from './runText';
import { formatMoney } from '../numberFormat';

export function MoneyLine({ money }: { money: MoneyAtRiskDto | null | undefined }) {
  if (!money?.text) return null;
  return (
    <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }} data-testid="money-line">
      {money.text}
    </Typography>
  );
}

/** The ad set's or campaign's name, then what the change is, its campaign and its id. */
function ChangedObject({ change }: { change: BudgetChangeDto }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="body2">{change.name}</Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {[translate(`budgets.changes.actions.${change.action}`), change.campaign_name, change.object_id]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
    </>
  );
}

const budgetText = (change: BudgetChangeDto) => `${formatMoney(change.before)} → ${formatMoney(change.allowed)}`;

/** A phone's cell: the object, then "Daily budget: $50.00 → $60.00 (+$10.00)", then what was asked and what cut it. */
function PhoneChangeCell({ change }: { change: BudgetChangeDto }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`budgets.changes.${key}`);
  const whole = { display: 'inline-block' } as const;
  return (
    <TableCell sx={{ px: 1, overflowWrap: 'anywhere' }}>
      <ChangedObject change={change} />
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        <Box component="span" sx={whole}>{`${t('budget')}: ${budgetText(change)}`}</Box>{' '}
        <Box component="span" sx={{ ...whole, fontWeight: 600 }}>{`(${signedMoney(change.daily_delta)})`}</Box>
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {`${t('asked')}: ${formatMoney(change.asked)}`}
        {change.cut ? ` · ${t('cut')}: ${change.cut}` : null}
      </Typography>
    </TableCell>
  );
}

export function BudgetChangesTable({ changes }: { changes: BudgetChangeDto[] }) {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  const t = (key: string) => translate(`budgets.changes.${key}`);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={phone ? { px: 1 } : undefined}>{t('object')}</TableCell>
            {phone ? null : (
              <>
                <TableCell>{t('budget')}</TableCell>
                <TableCell>{t('asked')}</TableCell>
                <TableCell>{t('cut')}</TableCell>
                <TableCell align="right">{t('delta')}</TableCell>
              </>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {changes.map((change) => (
            <TableRow key={`${change.action}-${change.object_id}`} data-testid={`budget-change-${change.object_id}`}>
              {phone ? (
                <PhoneChangeCell change={change} />
              ) : (
                <>
                  <TableCell sx={{ minWidth: 160, overflowWrap: 'anywhere' }}>
                    <ChangedObject change={change} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{budgetText(change)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMoney(change.asked)}</TableCell>
                  <TableCell sx={{ minWidth: 140 }}>{change.cut ?? t('not_cut')}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                    {signedMoney(change.daily_delta)}
                  </TableCell>
                </>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** The money line over the table, under a heading; nothing when the rule plans no change. */
export function BudgetChangesSection({
  changes,
  money,
}: {
  changes: BudgetChangeDto[] | undefined;
  money: MoneyAtRiskDto | null | undefined;
}) {
  const translate = useTranslate();
  if (!changes) return null;
  return (
    <Box component="section" aria-label={translate('budgets.changes.title')}>
      <Typography variant="subtitle2" component="h3">
        {translate('budgets.changes.title')}
      </Typography>
      <MoneyLine money={money} />
      {changes.length ? <BudgetChangesTable changes={changes} /> : null}
    </Box>
  );
}

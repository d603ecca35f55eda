/**
 * A rule's conditions as judged on one object: each as its values filled in ("CPL (last 7 days)
 * $42.10 > $30.00"), marked ✓ (holds), ✗ (does not) or "no data". Preview lists them per object
 * (on a phone under the object's name, one cell a row); a run record under each object's metrics.
 */
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ConditionValueDto } from '../../../shared/budgetChanges';
import type { PreviewResultDto } from '../../../shared/contracts';
import { conditionMark } from './runText';
import { useNarrowScreen } from '../RowActions';

const MARK_COLOR = { true: 'success.dark', false: 'text.secondary', null: 'warning.dark' } as const;

/** The engine ends `shown` with its own mark (✓, ✗, ?): the coloured mark in front says it already. */
const withoutMark = (shown: string) => shown.replace(/ [✓✗?]$/, '');

export function ConditionValues({ values }: { values: ConditionValueDto[] | undefined }) {
  const translate = useTranslate();
  if (!values?.length) return null;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={translate('budgets.conditions.values')}>
      {values.map((value) => (
        <Typography component="li" variant="caption" key={value.text} sx={{ display: 'block' }}>
          <Box
            component="span"
            sx={{ fontWeight: 600, color: MARK_COLOR[String(value.result) as keyof typeof MARK_COLOR] }}
          >
            {conditionMark(value.result, translate)}
          </Box>{' '}
          {withoutMark(value.shown)}
        </Typography>
      ))}
    </Box>
  );
}

/** Preview's objects with their conditions as judged (the server lists those it would act on first). */
export function PreviewConditions({ objects }: { objects: NonNullable<PreviewResultDto['conditions']> }) {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  if (!objects.length) return null;
  const verdictOf = (result: boolean | null) =>
    translate(`budgets.conditions.${result === null ? 'no_data' : result ? 'holds' : 'fails'}`);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('budgets.conditions.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={phone ? { px: 1 } : undefined}>{translate('budgets.conditions.object')}</TableCell>
            {phone ? null : <TableCell>{translate('budgets.conditions.values')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {objects.map((object) => {
            const name = (
              <>
                <Typography variant="body2">{object.name}</Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {[verdictOf(object.result), object.object_id].join(' · ')}
                </Typography>
              </>
            );
            return (
              <TableRow
                key={`${object.object_type}-${object.object_id}`}
                data-testid={`conditions-${object.object_id}`}
              >
                {phone ? (
                  <TableCell sx={{ px: 1, overflowWrap: 'anywhere' }}>
                    {name}
                    <Box sx={{ mt: 0.5 }}>
                      <ConditionValues values={object.values} />
                    </Box>
                  </TableCell>
                ) : (
                  <>
                    <TableCell sx={{ minWidth: 140, overflowWrap: 'anywhere' }}>{name}</TableCell>
                    <TableCell>
                      <ConditionValues values={object.values} />
                    </TableCell>
                  </>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

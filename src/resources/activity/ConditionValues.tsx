/**
 * A rule's conditions as judged on one object: each as its values filled in ("CPL (last 7 days)
 * $42.10 > $30.00"), marked ✓ (holds), ✗ (does not) or "no data". Preview lists them per object;
 * a run record under each object's metrics.
 */
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ConditionValueDto } from '../../domain/budgetChanges';
import type { PreviewResultDto } from '../../domain/contracts';
import { conditionMark } from '../../custom-pages/edit-rule/runText';

const MARK_COLOR = { true: 'success.dark', false: 'text.secondary', null: 'warning.dark' } as const;

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
          {value.shown}
        </Typography>
      ))}
    </Box>
  );
}

/** Preview's objects with their conditions as judged (the server lists those it would act on first). */
export function PreviewConditions({ objects }: { objects: NonNullable<PreviewResultDto['conditions']> }) {
  const translate = useTranslate();
  if (!objects.length) return null;
  const verdictOf = (result: boolean | null) =>
    translate(`budgets.conditions.${result === null ? 'no_data' : result ? 'holds' : 'fails'}`);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('budgets.conditions.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('budgets.conditions.object')}</TableCell>
            <TableCell>{translate('budgets.conditions.values')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {objects.map((object) => (
            <TableRow key={`${object.object_type}-${object.object_id}`} data-testid={`conditions-${object.object_id}`}>
              <TableCell sx={{ minWidth: 140, overflowWrap: 'anywhere' }}>
                <Typography variant="body2">{object.name}</Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {[verdictOf(object.result), object.object_id].join(' · ')}
                </Typography>
              </TableCell>
              <TableCell>
                <ConditionValues values={object.values} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

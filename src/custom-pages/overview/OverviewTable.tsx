/** The agency overview on a desktop: one row per folder, those that need a person first. */
import { Box, Card, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import type { OverviewRow } from '../../../shared/overview';
import {
  ActedToday,
  ActivityLink,
  FolderLink,
  PeriodFigures,
  ReasonChips,
  ThresholdText,
  useMayOpenActivity,
} from './OverviewParts';

/** Read by screen readers only (the Activity column's heading: its cells say what they open). */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** The edge of a row that needs a person: red for held runs and health, orange for the rest. */
export const attentionEdge = (row: OverviewRow) => (theme: Theme) => {
  const score = row.needs_attention.score;
  const color = score >= 3 ? theme.palette.error.main : score > 0 ? theme.palette.warning.main : 'transparent';
  return { boxShadow: `inset 4px 0 0 ${color}` };
};

export function OverviewTable({ rows }: { rows: OverviewRow[] }) {
  const translate = useTranslate();
  const mayOpenActivity = useMayOpenActivity();
  const col = (key: string) => translate(`overview.col.${key}`);
  return (
    <Card variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('overview.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{col('folder')}</TableCell>
            <TableCell>{col('attention')}</TableCell>
            <TableCell>{col('today')}</TableCell>
            <TableCell>{col('week')}</TableCell>
            <TableCell>{col('threshold')}</TableCell>
            <TableCell>{col('acted')}</TableCell>
            {mayOpenActivity ? (
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  {col('activity')}
                </Box>
              </TableCell>
            ) : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.folder.id} data-testid={`overview-${row.folder.id}`}>
              <TableCell sx={[attentionEdge(row), { minWidth: 180 }]}>
                <FolderLink row={row} />
              </TableCell>
              <TableCell sx={{ minWidth: 200, maxWidth: 320 }}>
                <ReasonChips row={row} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <PeriodFigures row={row} period="today" />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <PeriodFigures row={row} period="week" />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <ThresholdText row={row} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <ActedToday row={row} />
              </TableCell>
              {mayOpenActivity ? (
                <TableCell align="right">
                  <ActivityLink row={row} />
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

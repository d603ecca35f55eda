/** The agency overview on a phone: a card per folder, those that need a person first. */
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
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
import { attentionEdge } from './OverviewTable';

function Labelled({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {children}
    </Box>
  );
}

export function OverviewCards({ rows }: { rows: OverviewRow[] }) {
  const translate = useTranslate();
  const mayOpenActivity = useMayOpenActivity();
  const col = (key: string) => translate(`overview.col.${key}`);
  return (
    <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label={translate('overview.title')}>
      {rows.map((row) => (
        <Card
          key={row.folder.id}
          component="li"
          variant="outlined"
          sx={attentionEdge(row)}
          data-testid={`overview-${row.folder.id}`}
        >
          <CardContent sx={{ '&:last-child': { pb: 1.5 } }}>
            <Stack spacing={1}>
              <FolderLink row={row} variant="subtitle1" />
              <ReasonChips row={row} />
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
                <Labelled label={col('today')}>
                  <PeriodFigures row={row} period="today" />
                </Labelled>
                <Labelled label={col('week')}>
                  <PeriodFigures row={row} period="week" />
                </Labelled>
                <Labelled label={col('threshold')}>
                  <ThresholdText row={row} />
                </Labelled>
                <Labelled label={col('acted')}>
                  <ActedToday row={row} />
                </Labelled>
              </Box>
              {mayOpenActivity ? (
                <Box>
                  <ActivityLink row={row} />
                </Box>
              ) : null}
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

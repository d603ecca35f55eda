/**
 * Before a template edit is saved: how many folders and rules it changes (and which overrides keep
 * a folder's own value), and from the backtest on their recorded history what the changed rules
 * would have done over the last 30 days under the old and the new values, per folder and in total.
 * Save from here; on a phone the dialog is the whole screen and the folders are cards.
 */
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import {
  templateFieldLabel,
  type PreviewTotals,
  type TemplateField,
  type TemplatePreviewDto,
} from '../../../shared/templates';
import { useNarrowScreen } from '../../layout/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { TemplatePatch } from './templateDraft';

const money = (n: number) =>
  n.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

const COLUMNS: { key: keyof PreviewTotals; label: string; format?: (n: number) => string }[] = [
  { key: 'paused', label: 'resources.templates.preview.paused' },
  { key: 'revived', label: 'resources.templates.preview.revived' },
  { key: 'changed', label: 'resources.templates.preview.changed' },
  { key: 'spend_stopped', label: 'resources.templates.preview.spend_stopped', format: money },
  { key: 'false_pauses', label: 'resources.templates.preview.false_pauses' },
];

/** "12 → 15" when the edit moves it, "12" when not. */
function beforeAfter(
  before: PreviewTotals,
  after: PreviewTotals,
  key: keyof PreviewTotals,
  format: (n: number) => string = String,
) {
  return before[key] === after[key] ? format(before[key]) : `${format(before[key])} → ${format(after[key])}`;
}

function TotalsTable({ preview }: { preview: TemplatePreviewDto }) {
  const translate = useTranslate();
  const rows = [
    ...preview.backtest.folders.map((f) => ({ key: String(f.folder_id), name: f.folder_name, ...f })),
    {
      key: 'total',
      name: translate('resources.templates.preview.total'),
      before: preview.backtest.totals.before,
      after: preview.backtest.totals.after,
    },
  ];
  return (
    <Table size="small" aria-label={translate('resources.templates.preview.backtest_title')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.templates.fields.folder')}</TableCell>
          {COLUMNS.map((c) => (
            <TableCell key={c.key} align="right">
              {translate(c.label)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key} sx={row.key === 'total' ? { '& td': { fontWeight: 600 } } : undefined}>
            <TableCell>{row.name}</TableCell>
            {COLUMNS.map((c) => (
              <TableCell key={c.key} align="right">
                {beforeAfter(row.before, row.after, c.key, c.format)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function TotalsCards({ preview }: { preview: TemplatePreviewDto }) {
  const translate = useTranslate();
  const cards = [
    ...preview.backtest.folders.map((f) => ({
      key: String(f.folder_id),
      name: f.folder_name,
      before: f.before,
      after: f.after,
    })),
    {
      key: 'total',
      name: translate('resources.templates.preview.total'),
      before: preview.backtest.totals.before,
      after: preview.backtest.totals.after,
    },
  ];
  return (
    <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {cards.map((card) => (
        <Card key={card.key} variant="outlined" component="li">
          <CardContent sx={{ py: 1, '&:last-child': { pb: 1 } }}>
            <Typography variant="subtitle2" component="h3">
              {card.name}
            </Typography>
            {COLUMNS.map((c) => (
              <Stack key={c.key} direction="row" justifyContent="space-between">
                <Typography variant="body2" color="text.secondary">
                  {translate(c.label)}
                </Typography>
                <Typography variant="body2">{beforeAfter(card.before, card.after, c.key, c.format)}</Typography>
              </Stack>
            ))}
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

const fieldsText = (fields: string[]) => fields.map((f) => templateFieldLabel(f as TemplateField)).join(', ');

export function TemplatePreviewDialog({
  templateId,
  patch,
  saving,
  onCancel,
  onSave,
}: {
  templateId: number;
  patch: TemplatePatch;
  saving: boolean;
  onCancel: () => void;
  onSave: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const phone = useNarrowScreen();
  const preview = useQuery({
    queryKey: ['templates', templateId, 'preview', patch],
    queryFn: () => dataProvider.previewTemplateEdit(templateId, patch),
    retry: false,
    gcTime: 0,
  });
  const data = preview.data;
  const error = preview.error as { body?: { detail?: string }; message?: string } | null;
  return (
    <Dialog open onClose={onCancel} fullScreen={phone} maxWidth="lg" fullWidth aria-labelledby="template-preview-title">
      <DialogTitle id="template-preview-title">{translate('resources.templates.preview.title')}</DialogTitle>
      <DialogContent>
        {preview.isPending ? (
          <Box sx={{ py: 2 }}>
            <Typography color="text.secondary" gutterBottom>
              {translate('resources.templates.preview.working')}
            </Typography>
            <LinearProgress />
          </Box>
        ) : null}
        {error ? <Alert severity="error">{error.body?.detail ?? error.message}</Alert> : null}
        {data ? (
          <Stack spacing={2}>
            <Typography>
              {translate('resources.templates.preview.summary', {
                rules: translate('resources.templates.preview.rule_count', { smart_count: data.rules }),
                folders: translate('resources.templates.preview.folder_count', { smart_count: data.folders }),
                followers: data.followers,
              })}
            </Typography>
            {data.template_changes ? (
              <Typography variant="body2" color="text.secondary">
                {data.template_changes}
              </Typography>
            ) : null}
            <Stack component="ul" spacing={0.5} sx={{ pl: 2, m: 0 }}>
              {data.changes.map((c) => (
                <li key={c.rule.id}>
                  <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
                    {c.folder.name}
                  </Typography>{' '}
                  <Typography variant="body2" component="span">
                    {c.fields.length
                      ? translate('resources.templates.preview.changes', { fields: fieldsText(c.fields) })
                      : translate('resources.templates.preview.unchanged')}
                  </Typography>
                  {c.kept.length ? (
                    <Chip
                      size="small"
                      variant="outlined"
                      sx={{ ml: 1 }}
                      label={translate('resources.templates.preview.kept', { fields: fieldsText(c.kept) })}
                    />
                  ) : null}
                </li>
              ))}
            </Stack>
            <Box>
              <Typography variant="subtitle1" component="h3">
                {translate('resources.templates.preview.backtest_title')}
              </Typography>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                {translate('resources.templates.preview.backtest_help', {
                  days: data.backtest.days,
                  from: new Date(data.backtest.from).toLocaleDateString('en-US', { dateStyle: 'medium' }),
                  to: new Date(data.backtest.to).toLocaleDateString('en-US', { dateStyle: 'medium' }),
                  seconds: data.backtest.seconds.toFixed(1),
                })}
              </Typography>
              {phone ? <TotalsCards preview={data} /> : <TotalsTable preview={data} />}
            </Box>
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={!data} loading={saving} onClick={onSave}>
          {data
            ? translate('resources.templates.preview.save', { smart_count: data.folders })
            : translate('resources.templates.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Who uses the template: each folder with its rule and the fields it overrides; folders whose own
 * rule looks like it (the same task cards on, the same kind of action) with Link, which keeps the
 * folder's values as overrides; and a folder picker to use the template in another folder. An
 * action the person may not take says why instead of being offered.
 */
import LinkIcon from '@mui/icons-material/Link';
import {
  Autocomplete,
  Box,
  Button,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import { templateFieldLabel, type TemplateDto, type TemplateField } from '../../../shared/templates';
import { Section } from '../../layout/rule-form/Section';
import { useNarrowScreen } from '../../layout/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';

function OverrideChips({ fields }: { fields: string[] }) {
  const translate = useTranslate();
  if (!fields.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.templates.inherits_all')}
      </Typography>
    );
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {fields.map((f) => (
        <Chip key={f} size="small" color="warning" variant="outlined" label={templateFieldLabel(f as TemplateField)} />
      ))}
    </Stack>
  );
}

function Followers({ template }: { template: TemplateDto }) {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  if (!template.folders.length)
    return <Typography color="text.secondary">{translate('resources.templates.no_folders')}</Typography>;
  if (phone)
    return (
      <Stack spacing={1}>
        {template.folders.map((f) => (
          <Box key={f.rule.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
            <Typography variant="subtitle2">{f.folder.name}</Typography>
            <Button component={RouterLink} to={`/edit-rule/${f.rule.id}`} size="small" sx={{ minHeight: 44, px: 0 }}>
              {f.rule.name}
            </Button>
            <OverrideChips fields={f.overrides} />
          </Box>
        ))}
      </Stack>
    );
  return (
    <Table size="small" aria-label={translate('resources.templates.folders_title')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.templates.fields.folder')}</TableCell>
          <TableCell>{translate('resources.templates.fields.rule')}</TableCell>
          <TableCell>{translate('resources.templates.fields.overrides')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {template.folders.map((f) => (
          <TableRow key={f.rule.id}>
            <TableCell>
              {f.folder.name}
              {f.account_name ? (
                <Typography variant="caption" color="text.secondary" component="div">
                  {f.account_name}
                </Typography>
              ) : null}
            </TableCell>
            <TableCell>
              <RouterLink to={`/edit-rule/${f.rule.id}`}>{f.rule.name}</RouterLink>
              {f.rule.is_active ? null : (
                <Typography variant="caption" color="text.secondary" component="div">
                  {translate('resources.templates.rule_off')}
                </Typography>
              )}
            </TableCell>
            <TableCell>
              <OverrideChips fields={f.overrides} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Lookalikes({ template, onChanged }: { template: TemplateDto; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const link = useMutation({
    mutationFn: (ruleId: number) => dataProvider.linkRuleToTemplate(template.id, ruleId),
    onSuccess: (rule) => {
      notify(translate('resources.templates.linked', { folder: rule.folder.name }), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      onChanged();
    },
    onError: (error: { body?: { detail?: string } }) =>
      notify(error.body?.detail ?? 'ra.notification.http_error', { type: 'error' }),
  });
  if (!template.lookalikes.length)
    return <Typography color="text.secondary">{translate('resources.templates.no_lookalikes')}</Typography>;
  return (
    <Stack spacing={1}>
      {template.lookalikes.map((l) => (
        <Stack
          key={l.rule.id}
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          alignItems={{ sm: 'center' }}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}
        >
          <Box sx={{ flex: 1 }}>
            <Typography variant="subtitle2">
              {l.folder.name} · <RouterLink to={`/edit-rule/${l.rule.id}`}>{l.rule.name}</RouterLink>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {l.differs.length
                ? translate('resources.templates.keeps', {
                    fields: l.differs.map((f) => templateFieldLabel(f as TemplateField)).join(', '),
                  })
                : translate('resources.templates.same_values')}
            </Typography>
          </Box>
          <Tooltip
            title={l.editable ? '' : translate('resources.templates.not_your_folder', { folder: l.folder.name })}
          >
            <span>
              <Button
                variant="outlined"
                startIcon={<LinkIcon />}
                disabled={!l.editable || link.isPending}
                onClick={() => link.mutate(l.rule.id)}
                sx={{ minHeight: 44 }}
                aria-label={translate('resources.templates.link_aria', { folder: l.folder.name })}
              >
                {translate('resources.templates.link')}
              </Button>
            </span>
          </Tooltip>
          {l.editable ? null : (
            <Typography variant="caption" color="text.secondary">
              {translate('resources.templates.not_your_folder', { folder: l.folder.name })}
            </Typography>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

interface FolderOption {
  id: number;
  name: string;
}

function UseInFolder({ template, onChanged }: { template: TemplateDto; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [folder, setFolder] = useState<FolderOption | null>(null);
  const folders = useQuery({
    queryKey: ['templates', 'folder-options'],
    queryFn: async ({ signal }) =>
      (await dataProvider.getFolderPage({ limit: 100, offset: 0, ordering: 'name', signal })).results.map((f) => ({
        id: f.id,
        name: f.name,
      })),
    staleTime: 60_000,
  });
  const used = new Set(template.folders.map((f) => f.folder.id));
  const adopt = useMutation({
    mutationFn: (folderId: number) => dataProvider.addTemplateToFolder(template.id, folderId),
    onSuccess: (rule) => {
      notify(translate('resources.templates.used', { folder: rule.folder.name }), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      setFolder(null);
      onChanged();
    },
    onError: (error: { body?: Record<string, unknown> }) => {
      const body = error.body ?? {};
      const message =
        (body.detail as string) ?? (body.folder as string[] | undefined)?.[0] ?? 'ra.notification.http_error';
      notify(message, { type: 'error' });
    },
  });
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
      <Autocomplete
        options={(folders.data ?? []).filter((f) => !used.has(f.id))}
        value={folder}
        onChange={(_e, option) => setFolder(option)}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        loading={folders.isPending}
        renderInput={(params) => (
          <TextField {...params} size="small" label={translate('resources.templates.use_folder')} />
        )}
        sx={{ minWidth: 280 }}
      />
      <Button
        variant="contained"
        disabled={!folder || adopt.isPending}
        onClick={() => folder && adopt.mutate(folder.id)}
        sx={{ minHeight: 44 }}
      >
        {translate('resources.templates.use')}
      </Button>
    </Stack>
  );
}

export function TemplateFolders({
  template,
  canEditRules,
  onChanged,
}: {
  template: TemplateDto;
  canEditRules: boolean;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  return (
    <>
      <Section
        title={translate('resources.templates.folders_title')}
        help={translate('resources.templates.folders_help')}
      >
        <Followers template={template} />
        {canEditRules ? (
          <Box sx={{ mt: 2 }}>
            <UseInFolder template={template} onChanged={onChanged} />
          </Box>
        ) : null}
      </Section>
      <Section
        title={translate('resources.templates.lookalikes_title')}
        help={translate('resources.templates.lookalikes_help')}
      >
        <Lookalikes template={template} onChanged={onChanged} />
      </Section>
    </>
  );
}

/**
 * Create Folder / Update Folder (docs/screens.md): Type, Plan, Ad account name (from the ad-account list),
 * Folder name, optional webinar-service credentials (a warning when the stored ones need re-entry:
 * the server's key cannot read them), the folder's own alert recipients (empty: the default ones)
 * and the folded Budget limits, sent as `budget_limits` when
 * changed. A missing required field blocks the call
 * and says 'This field is required'; the server's 400s show under their fields. The account list
 * can be refreshed from the ad platform, for an account created there since the server started.
 * Its form is useFolderForm, its Create / Update useFolderSubmit, its groups of fields FolderFields.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FolderDto } from '../../../shared/folders';
import { ErrorList } from '../../layout/ErrorList';
import { BudgetLimitsSection } from './BudgetLimitsSection';
import { AdAccountField, CredentialsFields, TypeAndPlanFields } from './FolderFields';
import { LeadOutcomesSection } from './LeadOutcomesSection';
import { useFolderForm } from './useFolderForm';
import { useFolderSubmit } from './useFolderSubmit';

export interface FolderDialogProps {
  open: boolean;
  /** The folder to update; null creates one. */
  folder: FolderDto | null;
  onClose: () => void;
  onSaved: (folder: FolderDto) => void;
}

export function FolderDialog({ open, folder, onClose, onSaved }: FolderDialogProps) {
  const translate = useTranslate();
  const form = useFolderForm(open, folder);
  const { submit, saving } = useFolderSubmit(folder, form, onSaved);
  const { values, errorOf, change } = form;
  const title = translate(folder ? 'rules.folder_dialog.update_title' : 'rules.folder_dialog.create_title');
  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="folder-dialog-title"
    >
      <DialogTitle id="folder-dialog-title">{title}</DialogTitle>
      <DialogContent>
        {/* A flex gap, so the fields keep their own margins and every row is the same distance apart. */}
        <Stack spacing={1.5} useFlexGap sx={{ pt: 1 }}>
          <ErrorList errors={form.otherErrors} />
          <TypeAndPlanFields form={form} />
          <AdAccountField form={form} folder={folder} />
          <TextField
            label={translate('rules.folder_dialog.name')}
            value={values.name}
            onChange={(e) => change('name')(e.target.value)}
            error={Boolean(errorOf('name'))}
            helperText={errorOf('name')}
          />
          <CredentialsFields form={form} folder={folder} />
          <TextField
            label={translate('alerts.recipients.label')}
            value={values.alert_emails}
            autoComplete="off"
            multiline
            minRows={1}
            onChange={(e) => change('alert_emails')(e.target.value)}
            error={Boolean(errorOf('alert_emails'))}
            helperText={errorOf('alert_emails') ?? translate('alerts.recipients.help')}
          />
          <BudgetLimitsSection
            draft={form.limits}
            errors={form.limitsErrors}
            expanded={form.limitsOpen}
            onExpand={form.setLimitsOpen}
            onChange={form.editLimits}
          />
          {folder ? <LeadOutcomesSection folderId={folder.id} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          {translate('rules.folder_dialog.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} loading={saving}>
          {translate(folder ? 'rules.folder_dialog.update' : 'rules.folder_dialog.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

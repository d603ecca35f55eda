/** 'Confirm delete?' before a trashed folder or rule is deleted for good; Cancel has the focus. */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

export function ConfirmDeleteDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="confirm-delete-title">
      <DialogTitle id="confirm-delete-title">{translate('rules.trash.confirm_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('rules.trash.confirm_text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          {translate('rules.trash.confirm_cancel')}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm}>
          {translate('rules.trash.confirm_delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

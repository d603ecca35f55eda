/**
 * The rule editor's alert schedule says who receives the mail: the folder's own recipients (set in
 * the folder dialog), or the default ones (ALERT_EMAILS on the server) when the folder has none.
 */
import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RuleDto } from '../../../shared/rules';

export function AlertRecipients({ folder }: { folder: Pick<RuleDto['folder'], 'alert_emails'> }) {
  const translate = useTranslate();
  const own = folder.alert_emails ?? [];
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      sx={{ mt: 1, overflowWrap: 'anywhere' }}
      data-testid="alert-recipients"
    >
      {own.length
        ? translate('alerts.recipients.mail_goes_to_own', { emails: own.join(', ') })
        : translate('alerts.recipients.mail_goes_to_default')}
    </Typography>
  );
}

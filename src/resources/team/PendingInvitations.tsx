/**
 * Team's pending invitations (add_edit_users): e-mail, group, who invited, expiry, and Resend (a new
 * link; the old one stops working) or Cancel (after a confirm). Nothing shows when none are open.
 */
import { Button, Card, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useNotifySuccess } from '../../layout/forms';
import type { PendingInvitation, usePendingInvitations } from './usePendingInvitations';
import { formatDateTime } from '../../layout/dateFormat';

export function PendingInvitations({ pending }: { pending: ReturnType<typeof usePendingInvitations> }) {
  const translate = useTranslate();
  const notifySuccess = useNotifySuccess();
  const [cancelling, setCancelling] = useState<PendingInvitation | null>(null);
  const { invitations, busyId } = pending;
  if (!invitations.length) return null;

  return (
    <Card variant="outlined" component="section" aria-labelledby="pending-invitations-title" sx={{ mt: 3 }}>
      <Typography id="pending-invitations-title" variant="h6" component="h2" sx={{ px: 2, pt: 1.5, pb: 0.5 }}>
        {translate('people.team.pending_title')}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.team.fields.email')}</TableCell>
            <TableCell>{translate('resources.team.fields.group')}</TableCell>
            <TableCell>{translate('people.team.pending_invited_by')}</TableCell>
            <TableCell>{translate('people.team.pending_expires')}</TableCell>
            <TableCell>{translate('people.team.pending_actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {invitations.map((invitation) => (
            <TableRow key={invitation.id}>
              <TableCell>{invitation.email}</TableCell>
              <TableCell>{invitation.group?.name ?? translate('people.team.no_group')}</TableCell>
              <TableCell>{invitation.invited_by ?? ''}</TableCell>
              <TableCell>
                {invitation.is_expired ? (
                  <Chip size="small" color="warning" label={translate('people.team.pending_expired')} />
                ) : (
                  formatDateTime(invitation.expires_at)
                )}
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={1}>
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={busyId === invitation.id}
                    aria-label={`${translate('people.team.resend')} ${invitation.email}`}
                    onClick={async () => {
                      if (await pending.resend(invitation.id)) notifySuccess('people.team.invite_sent');
                    }}
                  >
                    {translate('people.team.resend')}
                  </Button>
                  <Button
                    size="small"
                    variant="outlined"
                    color="error"
                    disabled={busyId === invitation.id}
                    aria-label={`${translate('people.team.cancel_invitation')} ${invitation.email}`}
                    onClick={() => setCancelling(invitation)}
                  >
                    {translate('people.team.cancel_invitation')}
                  </Button>
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Confirm
        isOpen={cancelling !== null}
        title="people.team.cancel_title"
        translateOptions={{ email: cancelling?.email ?? '' }}
        content="people.team.cancel_confirm"
        confirm="people.team.cancel_invitation"
        cancel="people.team.keep_invitation"
        confirmColor="warning"
        onClose={() => setCancelling(null)}
        onConfirm={async () => {
          const invitation = cancelling;
          setCancelling(null);
          if (invitation && (await pending.cancel(invitation.id))) notifySuccess('people.team.invitation_cancelled');
        }}
      />
    </Card>
  );
}

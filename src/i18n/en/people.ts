/** Messages of: Team, account, invitations, password reset, permission groups. Namespace `people` (resource labels go under `resources.<name>`). */
import { PHONE_EXAMPLE } from '../../../shared/validation';

export default {
  people: {
    fields: {
      first_name: 'First name',
      last_name: 'Last name',
      phone: 'Phone',
      email: 'Email',
      password: 'Password',
      password2: 'Confirm Password',
      old_password: 'Old password',
      new_password: 'New password',
      new_password2: 'Repeat new password',
      group: 'Permission group',
    },
    hints: {
      /** What the phone rule accepts (shared/validation.ts), under the field before anything is typed. */
      phone: `Optional. 10 digits with an optional leading +, like ${PHONE_EXAMPLE} or 1234567890`,
    },
    account: {
      title: 'Account',
      save: 'Save',
      saved: 'Account data saved successfully',
      change_password: 'Change password',
      password_changed: 'Password changed successfully',
      pending_email:
        'A change of your e-mail address to %{email} was asked for by %{by} and waits for confirmation from that address. If you did not ask for it, withdraw it.',
      pending_email_by_unknown: 'someone',
      withdraw_email_change: 'Withdraw',
      email_change_withdrawn: 'The e-mail change was withdrawn: its link no longer works.',
    },
    team: {
      invite: 'Invite',
      invite_title: 'Invite a colleague',
      invite_send: 'Send invitation',
      invite_sent: 'Invitation sent successfully',
      activate: 'Activate',
      deactivate: 'Deactivate',
      activity_changed: 'User activity changed successfully',
      group_changed: 'Permission group changed successfully',
      no_group: 'No group',
      yourself: 'You cannot deactivate your own account.',
      pending_title: 'Pending invitations',
      pending_invited_by: 'Invited by',
      pending_expires: 'Expires',
      pending_expired: 'Expired',
      pending_actions: 'Action',
      resend: 'Resend',
      cancel_invitation: 'Cancel',
      cancel_title: 'Cancel the invitation to %{email}?',
      cancel_confirm: 'The link already sent will no longer work.',
      keep_invitation: 'Keep',
      invitation_cancelled: 'Invitation cancelled',
      no_groups:
        'Everyone you invite joins a permission group, which says what they may see and change. There is no permission group yet: create one first, then invite.',
      no_groups_ask:
        'Everyone you invite joins a permission group, which says what they may see and change. There is no permission group yet: ask someone who may change permissions to create one.',
      create_group: 'Create a permission group',
      member: 'Member',
    },
    permissions: {
      create: 'New group',
      rename: 'Rename %{name}',
      save_name: 'Save name',
      cancel: 'Cancel',
      renamed: 'Group was renamed successfully',
      deleted: 'Group deleted successfully',
      delete_title: 'Delete group %{name}?',
      delete_confirm: 'Are you sure you want to delete this group?',
      accesses_of: 'Accesses of %{name}',
      empty_title: 'No permission groups yet',
      empty:
        'A permission group is a set of accesses — which screens its members see and what they may change. Every colleague belongs to one: create one with New group before you invite anyone.',
      empty_reader: 'A permission group is a set of accesses. No group has been created yet.',
    },
    password_reset: {
      title: 'Password reset',
      intro: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
      submit: 'Send reset link',
      sent: 'Reset password link has been sent to your email',
      back_to_login: 'Back to login',
    },
    confirm_reset: {
      title: 'Choose a new password',
      home: 'Home',
      save: 'Save',
      done: 'Password has been reset. Sign in with the new password.',
    },
    confirm_email: {
      title: 'Confirm your new e-mail address',
      intro:
        'Confirm to make this the e-mail address of your account. Every session of the account then ends: sign in again with the new address.',
      submit: 'Confirm',
      done: 'E-mail address changed. Sign in with the new address.',
    },
    join: {
      title: 'Confirm invitation',
      intro: 'Welcome! Tell us your name and choose a password to join the team.',
      submit: 'Join',
      confirmed: 'Invitation confirmed successfully',
    },
  },
};

/** The people area's messages: an invitation and a password reset, each with its one link. */
import { PRODUCT_NAME } from '../../src/domain/constants';
import type { MailMessage } from '../mail/mailer';
import { renderMessage, userText } from '../mail/template';

export const invitationLink = (publicUrl: string, code: string) => `${publicUrl}/join/${encodeURIComponent(code)}`;
export const passwordResetLink = (publicUrl: string, token: string) =>
  `${publicUrl}/confirm-password-reset/${encodeURIComponent(token)}`;

export function invitationMail(to: string, link: string, invitedBy: string, groupName: string | null): MailMessage {
  return {
    to,
    subject: `You are invited to ${PRODUCT_NAME}`,
    ...renderMessage({
      paragraphs: [
        'Hello,',
        `${userText(invitedBy)} invited you to join the team on ${PRODUCT_NAME}${
          groupName ? ` (permission group: ${userText(groupName)})` : ''
        }.`,
        'Open the link below, enter your name, phone and a password, and you can sign in with this e-mail address.',
      ],
      action: { label: 'Accept the invitation', url: link },
      footer: [
        'The link works once and expires in 7 days. If you did not expect this invitation, ignore this message.',
      ],
    }),
  };
}

export function passwordResetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    ...renderMessage({
      paragraphs: ['Hello,', `Someone (hopefully you) asked to reset the password of your ${PRODUCT_NAME} account.`],
      action: { label: 'Choose a new password', url: link },
      footer: [
        'The link works once and expires in 1 hour. If you did not ask for it, ignore this message: your password stays as it is.',
      ],
    }),
  };
}

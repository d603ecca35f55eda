/**
 * The people area's messages: an invitation, a password reset and an e-mail change (the link to
 * the new address, the notices to the old one).
 */
import { PRODUCT_NAME } from '../../shared/constants';
import type { MailMessage } from '../mail/mailer';
import { renderMessage, userText } from '../mail/template';

export const invitationLink = (publicUrl: string, code: string) => `${publicUrl}/join/${encodeURIComponent(code)}`;
export const passwordResetLink = (publicUrl: string, token: string) =>
  `${publicUrl}/confirm-password-reset/${encodeURIComponent(token)}`;
export const emailChangeLink = (publicUrl: string, token: string) =>
  `${publicUrl}/confirm-email-change/${encodeURIComponent(token)}`;

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

/** To the new address: the only way the change takes effect. */
export function emailChangeConfirmMail(to: string, link: string, requestedBy: string): MailMessage {
  return {
    to,
    subject: `Confirm your new ${PRODUCT_NAME} e-mail address`,
    ...renderMessage({
      paragraphs: [
        'Hello,',
        `${userText(requestedBy)} asked to make this the e-mail address of a ${PRODUCT_NAME} account.`,
        'The address changes only when you confirm it. Every session of the account then ends: sign in again with this address.',
      ],
      action: { label: 'Confirm the new address', url: link },
      footer: ['The link works once and expires in 24 hours. If you did not expect this message, ignore it.'],
    }),
  };
}

/** To the old address when a change is asked for: the owner learns of it before it can take effect. */
export function emailChangeRequestedMail(to: string, newEmail: string, requestedBy: string): MailMessage {
  return {
    to,
    subject: `A change of your ${PRODUCT_NAME} e-mail address was requested`,
    ...renderMessage({
      paragraphs: [
        'Hello,',
        `${userText(requestedBy)} asked to change the e-mail address of your ${PRODUCT_NAME} account to ${userText(newEmail, 254)}.`,
        'The change is not in effect until it is confirmed from the new address; until then you sign in with this one.',
      ],
      footer: ['If you did not expect this, tell your administrator at once.'],
    }),
  };
}

/** To the old address when the change took effect. */
export function emailChangedMail(to: string, newEmail: string): MailMessage {
  return {
    to,
    subject: `Your ${PRODUCT_NAME} e-mail address was changed`,
    ...renderMessage({
      paragraphs: [
        'Hello,',
        `The e-mail address of your ${PRODUCT_NAME} account is now ${userText(newEmail, 254)}. Every session of the account has ended.`,
      ],
      footer: ['If you did not expect this, tell your administrator at once.'],
    }),
  };
}

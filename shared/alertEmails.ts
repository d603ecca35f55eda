/**
 * A folder's own alert recipients (`alert_emails`): the addresses its rules' mail alerts go to
 * instead of the default recipients (the server's ALERT_EMAILS). Written as a list (the folder
 * dialog splits what is typed at commas, semicolons, spaces and line breaks); answered as stored:
 * trimmed, each address once. An empty list means the default recipients.
 */
import { z } from 'zod';
import { EMAIL_PATTERN } from './validation';

export const MAX_ALERT_EMAILS = 20;

/** What is typed in the folder dialog → the list it sends. */
export const splitEmails = (text: string): string[] => text.split(/[\s,;]+/).filter(Boolean);

/** Each address once (the first spelling), in the order given. */
function distinct(emails: string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((email) => !seen.has(email.toLowerCase()) && seen.add(email.toLowerCase()));
}

export const alertEmailsSchema = z
  .array(
    z
      .string({ error: 'Enter e-mail addresses as text' })
      .trim()
      .max(254, 'An e-mail address is at most 254 characters'),
    {
      error: 'Enter a list of e-mail addresses',
    },
  )
  .nullish()
  .transform((list, ctx) => {
    const emails = distinct((list ?? []).filter(Boolean));
    const invalid = emails.filter((email) => !EMAIL_PATTERN.test(email));
    if (invalid.length) ctx.addIssue({ code: 'custom', message: `Not an e-mail address: ${invalid.join(', ')}` });
    else if (emails.length > MAX_ALERT_EMAILS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_ALERT_EMAILS} recipients` });
    return emails;
  })
  .describe(
    "Who receives the mail alerts of the folder's rules; empty: the server's default recipients (ALERT_EMAILS)",
  );

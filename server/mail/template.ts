/** Plain-text and HTML bodies of one simple message: paragraphs, an optional button link, a footer. */
import { PRODUCT_NAME } from '../../shared/constants';

export interface MessageContent {
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Small print under the button, e.g. how long the link works. */
  footer?: string[];
}

/**
 * Text a user typed (a name, a group or folder name) as it may appear in a mail: one line, at most
 * `max` characters, and defanged — a dot before a letter becomes `[.]` (every domain's last label
 * starts with one; "$12.50" and "J. R. R." stay as they are), `@` becomes `[at]` and `://` becomes
 * `[:]//` — so no mail client turns it into a link or an address the product did not write.
 */
export function userText(value: string, max = 60): string {
  const oneLine = value
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short =
    [...oneLine].length > max
      ? `${[...oneLine]
          .slice(0, max - 1)
          .join('')
          .trimEnd()}…`
      : oneLine;
  return short
    .replace(/:\/\//g, '[:]//')
    .replace(/@/g, '[at]')
    .replace(/([\p{L}\p{N}_-])\.(?=\p{L})/gu, '$1[.]');
}

/** An activity reason as a mail shows it: every value is user or platform text (names, errors), defanged. */
export const reasonText = (reason: Record<string, string>): string =>
  Object.entries(reason)
    .map(([key, value]) => `${key}: ${userText(String(value), 200)}`)
    .join('; ');

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderMessage({ paragraphs, action, footer = [] }: MessageContent): { text: string; html: string } {
  const text = [
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    ...footer,
    `— ${PRODUCT_NAME}`,
  ].join('\n\n');

  const p = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${escapeHtml(s)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1867C0;color:#ffffff;padding:10px 20px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      p(`If the button does not work, open this address: ${action.url}`, 'font-size:12px;color:#555')
    : '';
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#222;max-width:560px">',
    ...paragraphs.map((s) => p(s)),
    button,
    ...footer.map((s) => p(s, 'font-size:12px;color:#555')),
    p(`— ${PRODUCT_NAME}`, 'color:#555'),
    '</body></html>',
  ].join('\n');
  return { text, html };
}

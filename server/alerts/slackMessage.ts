/**
 * An alert as a Slack message, from the same parts as its mail (server/mail/template.ts): a title,
 * paragraphs, and its links (one action, or a held run's Approve and Dismiss), shown as buttons.
 * Slack's mrkdwn treats &, < and > as markup, so text is escaped; a section holds at most 3,000
 * characters, so long lists are cut with a note.
 */
import type { WebhookMessage } from './webhook';

const SECTION_LIMIT = 3000;
const MAX_LINES = 20;

const escapeMrkdwn = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export interface AlertLink {
  label: string;
  url: string;
  /** Slack's button style; the first button is primary unless it says. */
  style?: 'primary' | 'danger';
}

export interface AlertParts {
  title: string;
  paragraphs: string[];
  action?: AlertLink;
  /** Buttons in place of `action` (a held run's Approve and Dismiss). */
  actions?: AlertLink[];
}

export function slackMessage({ title, paragraphs, action, actions }: AlertParts): WebhookMessage {
  const links = actions ?? (action ? [{ style: 'primary' as const, ...action }] : []);
  const [lead = '', ...lines] = paragraphs;
  const shown = lines.slice(0, MAX_LINES);
  const more = lines.length - shown.length;
  let list = shown.map((line) => `• ${escapeMrkdwn(line)}`).join('\n');
  if (more > 0) list += `\n… and ${more} more`;
  if (list.length > SECTION_LIMIT) list = `${list.slice(0, SECTION_LIMIT - 1)}…`;
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
    { type: 'section', text: { type: 'mrkdwn', text: escapeMrkdwn(lead).slice(0, SECTION_LIMIT) } },
  ];
  if (list) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: list } });
  if (links.length)
    blocks.push({
      type: 'actions',
      elements: links.map((link) => ({
        type: 'button',
        text: { type: 'plain_text', text: link.label },
        url: link.url,
        ...(link.style ? { style: link.style } : {}),
      })),
    });
  const fallback = [title, lead, ...links.map((link) => `${link.label}: ${link.url}`)].filter(Boolean).join('\n');
  return { text: escapeMrkdwn(fallback), blocks };
}

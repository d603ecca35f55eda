/**
 * Alert digests (docs/engine.md): at each alert hour, one e-mail per rule listing what it did since
 * its previous alert, to the folder's own recipients or else ALERT_EMAILS (none set: the outbox). Sending is itself an activity entry
 * (alert_sent). Nothing to report: no mail. Sent once per (rule, alert hour): the entry is claimed
 * before the mail goes out and the message is stored with it (mailOnce.ts), so a retry after a
 * crash neither writes a second entry nor builds a different digest.
 */
import { moneyOf } from '../judgement/budgets/moneyAtRisk';
import { and, asc, desc, eq, gt, lt, lte, ne } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import type { Mailer } from '../mail/mailer';
import { reasonText, renderMessage, userText } from '../mail/template';
import { ruleNamesInMail } from './mailNames';
import { addresseesOf } from './recipients';
import type { ActivityRow } from '../activity/entries';
import { sendOnce } from './mailOnce';
import { slackMessage } from './slackMessage';
import { queueWebhooks, type AlertWebhooks } from './engineWebhooks';
import { createLedgerStore } from '../run/ledger';
import { loadEngineRule, type LoadedEngineRule } from '../run/rulesSource';
import { slotLabel, validZone } from '../judgement/scheduleSlots';
import type { EngineLog } from '../run/pipeline/context';

/** Sending one mail takes seconds; an alert attempt silent this long died. */
const ALERT_LEASE_MS = 5 * 60_000;

export interface AlertContext {
  db: Database;
  log: EngineLog;
  /** Where digests go: the configured mailer, or an outbox mailer when no recipients are set. */
  mailer: Mailer;
  recipients: string[];
  /** The configured mailer, for a folder's own recipients (alertRecipients.ts). */
  folderMailer?: Mailer;
  publicUrl: string;
  /** The From address, whose domain names the Message-IDs. */
  sender?: string;
  /** Slack-compatible webhooks that receive each digest too. */
  webhooks?: AlertWebhooks;
}

export interface AlertResult {
  status: 'sent' | 'nothing_to_report' | 'already_done' | 'rule_unavailable';
  entry?: ActivityRow;
}

/** Entries of the rule between its previous digest and this one's claim. */
async function sinceLastAlert(db: Database, ruleId: number, claim: ActivityRow): Promise<ActivityRow[]> {
  const [last] = await db
    .select({ createdAt: ruleActivity.createdAt })
    .from(ruleActivity)
    .where(
      and(
        eq(ruleActivity.ruleId, ruleId),
        eq(ruleActivity.action, 'alert_sent'),
        ne(ruleActivity.id, claim.id),
        lt(ruleActivity.createdAt, claim.createdAt),
      ),
    )
    .orderBy(desc(ruleActivity.createdAt))
    .limit(1);
  const conditions = [
    eq(ruleActivity.ruleId, ruleId),
    eq(ruleActivity.state, 'done'),
    ne(ruleActivity.action, 'alert_sent'),
    lte(ruleActivity.createdAt, claim.createdAt),
  ];
  if (last) conditions.push(gt(ruleActivity.createdAt, last.createdAt));
  return db
    .select()
    .from(ruleActivity)
    .where(and(...conditions))
    .orderBy(asc(ruleActivity.createdAt), asc(ruleActivity.id));
}

const describe = (entry: ActivityRow, zone: string) => {
  const at = DateTime.fromJSDate(new Date(entry.createdAt), { zone: validZone(zone) }).toFormat('LLL d, h:mm a');
  const why = reasonText(entry.reason ?? {});
  const object = entry.adId ? ` ${userText(entry.adId)}` : '';
  return `${at} — ${entry.action.replaceAll('_', ' ')}${object}${why ? ` (${why})` : ''}`;
};

/** The money the digest's budget changes moved: "Budget changes: +$1,240/day across 14 ad sets". */
function budgetLine(entries: ActivityRow[], currency: string): string[] {
  const changes = entries.filter(
    (e) => e.state === 'done' && e.budgetBefore !== null && e.budgetAfter !== null && e.action.endsWith('_budget'),
  );
  if (!changes.length) return [];
  const money = moneyOf(
    changes.map((e) => ({
      objectId: e.adId ?? '',
      level: e.objectType === 'campaign' ? ('campaign' as const) : ('adset' as const),
      before: e.budgetBefore!,
      asked: e.budgetAfter!,
      allowed: e.budgetAfter!,
      cutBy: null,
      cutText: null,
    })),
    currency,
  );
  return [`Budget changes: ${money.text}.`];
}

/** A digest's title, lines and link: the mail and the webhook message are both built from them. */
export function digestParts(rule: LoadedEngineRule, entries: ActivityRow[], publicUrl: string) {
  const names = ruleNamesInMail(rule);
  return {
    title: `${names.rule}: ${entries.length} rule action${entries.length === 1 ? '' : 's'} (${names.folder})`,
    paragraphs: [
      `Rule "${names.rule}" in ${names.folder} (${names.account}) since its last alert:`,
      ...budgetLine(entries, rule.account.currency),
      ...entries.map((e) => describe(e, rule.timezone)),
    ],
    action: { label: 'Open the activity', url: `${publicUrl}/activity?rule_id=${rule.id}` },
  };
}

export function digestMessage(rule: LoadedEngineRule, entries: ActivityRow[], publicUrl: string) {
  const parts = digestParts(rule, entries, publicUrl);
  return { subject: parts.title, ...renderMessage(parts) };
}

export async function runAlert(ctx: AlertContext, ruleId: number, slot: Date): Promise<AlertResult> {
  const ledger = createLedgerStore(ctx.db);
  if ((await ledger.claimRun(ruleId, slot, 'alert', ALERT_LEASE_MS)).claim !== 'claimed')
    return { status: 'already_done' };
  const rule = await loadEngineRule(ctx.db, ruleId);
  if (!rule || rule.isDeleted || !rule.isActive) {
    await ledger.finishRun(ruleId, slot, 'alert', { status: 'done', note: 'the rule is no longer active' });
    return { status: 'rule_unavailable' };
  }
  const { mailer, to } = addresseesOf(ctx, rule.folder.alertEmails);
  let count = 0;
  const result = await sendOnce(
    ctx.db,
    mailer,
    {
      ruleId,
      folderId: rule.folder.id,
      slot,
      action: 'alert_sent',
      compose: async (claim) => {
        const entries = await sinceLastAlert(ctx.db, ruleId, claim);
        if (!entries.length) return null;
        count = entries.length;
        return {
          message: { to, ...digestMessage(rule, entries, ctx.publicUrl) },
          reason: {
            Recipients: to,
            Actions: String(entries.length),
            Alert: `${slotLabel({ instant: slot }, rule.timezone)} digest`,
          },
        };
      },
    },
    ctx.sender,
  );
  if (result.status === 'nothing_to_send') {
    await ledger.finishRun(ruleId, slot, 'alert', { status: 'done', note: 'nothing to report' });
    return { status: 'nothing_to_report' };
  }
  // The digest's entries are fixed by its claim (its cut-off), so a retry rebuilds the same message.
  const entries = ctx.webhooks ? await sinceLastAlert(ctx.db, ruleId, result.entry) : [];
  await queueWebhooks(ctx, ctx.webhooks, {
    source: 'digest',
    sourceKey: String(result.entry.id),
    folderId: rule.folder.id,
    message: slackMessage(digestParts(rule, entries, ctx.publicUrl)),
  });
  await ledger.finishRun(ruleId, slot, 'alert', { status: 'done', note: `sent to ${to}` });
  if (result.status === 'sent')
    ctx.log.info(`rule ${ruleId} "${rule.name}": alert digest of ${count || 'its'} actions sent to ${to}`);
  return { status: 'sent', entry: result.entry };
}

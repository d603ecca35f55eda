/**
 * The agency overview's words for a reason a folder needs a person ("2 held runs", "CPL $84 over
 * $60", "Token expired") and its money: whole amounts without cents, as a person says them.
 */
import type { AttentionReason } from '../../../shared/overview';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** 84 → '$84', 84.5 → '$84.50' (the ad account's currency; dollars when it is unknown). */
export function shortMoney(value: number, currency: string): string {
  const digits = Number.isInteger(value) ? 0 : 2;
  const format = (code: string) =>
    new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  try {
    return format(currency);
  } catch {
    return format('USD');
  }
}

/** Meta's words for a token it refuses because its time ran out. */
const EXPIRED = /expired/i;

/** The chip's words. */
export function reasonLabel(translate: Translate, reason: AttentionReason, currency: string): string {
  const money = (value: number) => shortMoney(value, currency);
  switch (reason.kind) {
    case 'held_runs':
      return translate('overview.reason.held_runs', { smart_count: reason.count });
    case 'health':
      return translate(
        `overview.reason.health.${reason.check === 'token' && EXPIRED.test(reason.detail) ? 'token_expired' : reason.check}`,
      );
    case 'cpl_over':
      return translate(reason.period === 'today' ? 'overview.reason.cpl_over' : 'overview.reason.cpl_over_week', {
        cpl: money(reason.cpl),
        threshold: money(reason.threshold),
      });
    case 'spend_no_leads':
      return translate(
        reason.period === 'today' ? 'overview.reason.spend_no_leads' : 'overview.reason.spend_no_leads_week',
        { spend: money(reason.spend) },
      );
  }
}

/** What the chip's tooltip adds. */
export function reasonHint(translate: Translate, reason: AttentionReason, currency: string, turnOffs: number): string {
  switch (reason.kind) {
    case 'held_runs':
      return translate('overview.reason.held_runs_hint', {
        turn_offs: turnOffs,
        money:
          reason.budget_added === null
            ? ''
            : translate('overview.reason.held_runs_money', { money: shortMoney(reason.budget_added, currency) }),
      });
    case 'health':
      return translate('overview.reason.health_hint', { detail: reason.detail });
    case 'cpl_over':
      return translate('overview.reason.cpl_over_hint', { threshold: shortMoney(reason.threshold, currency) });
    case 'spend_no_leads':
      return translate('overview.reason.spend_no_leads_hint');
  }
}

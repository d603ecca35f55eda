/**
 * The money a run's budget changes move: the daily amount each change adds or removes, and the
 * run's totals as a user reads them ("+$1,240/day across 14 ad sets · −$300/day across 3
 * campaigns") — what a reviewer weighs before approving a held run, and what the folder's
 * daily_increase_limit is compared with. A change cut to nothing (allowed = before) moves nothing.
 */
import type { BudgetDecision } from './types';

export interface MoneyMoved {
  objectId: string;
  level: BudgetDecision['level'];
  /** Cents a day: more than 0 added, less than 0 removed. */
  perDay: number;
}

export interface MoneyAtRisk {
  changes: MoneyMoved[];
  /** Cents a day added by the raises, removed by the lowers (both 0 or more). */
  added: number;
  removed: number;
  /** "+$1,240/day across 14 ad sets · −$300/day across 3 campaigns"; "no budget change". */
  text: string;
}

const formats = new Map<string, Intl.NumberFormat[]>();

/** An amount of cents in the currency: whole amounts without cents ("$1,240"), others with ("$12.50"). */
function amountText(amountCents: number, currency: string): string {
  let pair = formats.get(currency);
  if (!pair) {
    const make = (digits: number) => {
      const options = { style: 'currency', minimumFractionDigits: digits, maximumFractionDigits: digits } as const;
      try {
        return new Intl.NumberFormat('en-US', { ...options, currency });
      } catch {
        return new Intl.NumberFormat('en-US', { ...options, currency: 'USD' });
      }
    };
    pair = [make(0), make(2)];
    formats.set(currency, pair);
  }
  return pair[amountCents % 100 === 0 ? 0 : 1]!.format(amountCents / 100);
}

const LEVEL_NAMES = { adset: ['ad set', 'ad sets'], campaign: ['campaign', 'campaigns'] } as const;

/** "14 ad sets", "3 ad sets and 1 campaign". */
function objectsText(changes: MoneyMoved[]): string {
  return (['adset', 'campaign'] as const)
    .map((level) => {
      const n = changes.filter((c) => c.level === level).length;
      return n ? `${n.toLocaleString('en-US')} ${LEVEL_NAMES[level][n === 1 ? 0 : 1]}` : '';
    })
    .filter(Boolean)
    .join(' and ');
}

export function moneyOf(decisions: readonly BudgetDecision[], currency: string): MoneyAtRisk {
  const changes = decisions
    .filter((d) => d.allowed !== d.before)
    .map((d) => ({ objectId: d.objectId, level: d.level, perDay: d.allowed - d.before }));
  const raises = changes.filter((c) => c.perDay > 0);
  const lowers = changes.filter((c) => c.perDay < 0);
  const added = raises.reduce((sum, c) => sum + c.perDay, 0);
  const removed = -lowers.reduce((sum, c) => sum + c.perDay, 0);
  const parts = [
    raises.length ? `+${amountText(added, currency)}/day across ${objectsText(raises)}` : '',
    lowers.length ? `−${amountText(removed, currency)}/day across ${objectsText(lowers)}` : '',
  ].filter(Boolean);
  return { changes, added, removed, text: parts.length ? parts.join(' · ') : 'no budget change' };
}

/**
 * Sending claimed budget changes (claim.ts) to the ad platform, one account at a time, in batched
 * writes paced under Meta's mutation rate (the client's pacer): each entry ends done or, refused,
 * as an error entry naming the platform's answer. Setting a daily budget to a value is idempotent,
 * so a retry re-sends exactly the pending ones.
 */
import type { AdPlatformClient } from '../adplatform/types';
import type { Database } from '../db/client';
import { createActivityStore, type ActivityRow } from '../activity/entries';

interface BudgetWriter {
  setBudgets?(
    changes: { id: string; dailyBudget: number }[],
    scope?: { accountId?: string },
  ): Promise<{ id: string; ok: boolean; error?: string }[]>;
}

export async function sendBudgetChanges(
  ctx: { db: Database; client: AdPlatformClient; now(): Date },
  claimed: ActivityRow[],
  accountId: string,
): Promise<{ done: ActivityRow[]; failed: ActivityRow[] }> {
  if (!claimed.length) return { done: [], failed: [] };
  const writer = ctx.client as AdPlatformClient & BudgetWriter;
  if (!writer.setBudgets) throw new Error('this ad platform client cannot change budgets');
  const results = await writer.setBudgets(
    claimed.map((entry) => ({ id: entry.adId!, dailyBudget: entry.budgetAfter! })),
    { accountId },
  );
  const byId = new Map(results.map((r) => [r.id, r]));
  const activity = createActivityStore(ctx.db);
  const done: ActivityRow[] = [];
  const failed: ActivityRow[] = [];
  for (const entry of claimed) {
    const result = byId.get(entry.adId!);
    if (result?.ok) done.push(entry);
    else {
      await activity.markFailed(entry, result?.error ?? 'no answer from the ad platform', ctx.now());
      failed.push(entry);
    }
  }
  await activity.markDone(
    done.map((e) => e.id),
    ctx.now(),
  );
  return { done, failed };
}

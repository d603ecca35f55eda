/** A rule's exemptions: the objects it leaves alone (an undo adds one), listed and removed for the API. */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleExemptions, rules } from '../db/schema/index';
import { notFound } from '../http/errors';
import { createActivityStore } from './entries';

async function requireLiveRule(db: Database, ruleId: number) {
  const [row] = await db
    .select({ id: rules.id })
    .from(rules)
    .where(and(eq(rules.id, ruleId), eq(rules.isDeleted, false)));
  if (!row) throw notFound();
}

/** The objects a live rule leaves alone, oldest exemption first. */
export async function listExemptions(db: Database, ruleId: number) {
  await requireLiveRule(db, ruleId);
  const rows = await db
    .select()
    .from(ruleExemptions)
    .where(eq(ruleExemptions.ruleId, ruleId))
    .orderBy(asc(ruleExemptions.createdAt));
  return rows.map((r) => ({ object_id: r.objectId, created_at: new Date(r.createdAt).toISOString() }));
}

/** The rule may act on the object again; 404 when it was not exempt. */
export async function removeExemption(db: Database, ruleId: number, objectId: string): Promise<void> {
  await requireLiveRule(db, ruleId);
  if (!(await createActivityStore(db).removeExemption(ruleId, objectId))) throw notFound();
}

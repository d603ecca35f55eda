/** The rule a person's request names (Run now, Preview), as the engine reads it. */
import type { Database } from '../db/client';
import { notFound } from '../http/errors';
import { loadEngineRule } from './rulesSource';

/** The rule, or a 404 when it does not exist or was deleted. */
export async function requireEngineRule(db: Database, ruleId: number) {
  const rule = await loadEngineRule(db, ruleId);
  if (!rule || rule.isDeleted) throw notFound();
  return rule;
}

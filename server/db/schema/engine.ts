import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { rules } from './rules';
import { users } from './people';

/** One row per (rule, scheduled hour) that ran: the exactly-once ledger of the rule engine. */
export const ruleRuns = pgTable(
  'rule_runs',
  {
    ruleId: integer('rule_id').notNull().references(() => rules.id, { onDelete: 'cascade' }),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    kind: text('kind').notNull().default('run'),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.slot, t.kind] })],
);

/** Rule activity (`/api/rule_log/`): what the engine did and why. */
export const ruleActivity = pgTable(
  'rule_activity',
  {
    id: serial('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ruleId: integer('rule_id').references(() => rules.id, { onDelete: 'set null' }),
    folderId: integer('folder_id'),
    action: text('action').notNull(),
    adId: text('ad_id'),
    objectType: text('object_type'),
    reason: jsonb('reason').$type<Record<string, string>>().notNull().default({}),
    slot: timestamp('slot', { withTimezone: true }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [
    index('rule_activity_created_idx').on(t.createdAt),
    index('rule_activity_rule_idx').on(t.ruleId),
    index('rule_activity_folder_idx').on(t.folderId),
    index('rule_activity_ad_idx').on(t.adId),
  ],
);

/** An object a user turned back on after a rule turned it off: that rule leaves it alone. */
export const ruleExemptions = pgTable(
  'rule_exemptions',
  {
    ruleId: integer('rule_id').notNull().references(() => rules.id, { onDelete: 'cascade' }),
    objectId: text('object_id').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.objectId] })],
);

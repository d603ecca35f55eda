import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow, serialId } from './columns';
import { metaAdAccounts } from './adplatform';
import { NEW_RULE_JUDGING, type RuleJudging } from '../../../shared/judging';
import type { ConditionGroup } from '../../../shared/ruleConditions';
import type { RuleAction } from '../../../shared/ruleActions';
import type { BudgetLimits } from '../../../shared/budgetLimits';
import type { RuleValues, TemplateField } from '../../../shared/templates';
import { users } from './people';

export const folders = pgTable(
  'folders',
  {
    id: serialId(),
    name: text('name').notNull(),
    clientType: text('client_type').notNull(),
    plan: text('plan').notNull(),
    adAccountId: adAccountId()
      .notNull()
      .references(() => metaAdAccounts.adAccountId),
    /** Webinar-service credentials, AES-GCM encrypted at rest; null when none are set. */
    demioCredentials: text('demio_credentials'),
    /** The folder's budget limits (shared/budgetLimits.ts), as set; null: the defaults. Read with readBudgetLimits. */
    budgetLimits: jsonb('budget_limits').$type<Partial<BudgetLimits>>(),
    /** Who receives the mail alerts of the folder's rules; empty: ALERT_EMAILS (the default recipients). */
    alertEmails: text('alert_emails').array().notNull().default(sql`'{}'::text[]`),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: instant('deleted_at'),
    createdAt: instantNow('created_at'),
    updatedAt: instantNow('updated_at'),
  },
  (t) => [
    index('folders_live_created_idx').on(t.isDeleted, t.createdAt, t.id),
    index('folders_name_idx').on(sql`lower(${t.name})`),
    // The Activity's Client / Ad account sort: folders in name order, each one's entries by id.
    index('folders_name_sort_idx').on(t.name, t.id),
    index('folders_account_idx').on(t.adAccountId),
    index('folders_trash_idx').on(t.deletedAt).where(sql`${t.isDeleted}`),
  ],
);

/** Rule templates (shared/templates.ts): a rule's values without a folder, which folders' rules follow. */
export const ruleTemplates = pgTable(
  'rule_templates',
  {
    id: serialId(),
    name: text('name').notNull(),
    values: jsonb('values').$type<RuleValues>().notNull(),
    createdAt: instantNow('created_at'),
    updatedAt: instantNow('updated_at'),
  },
  (t) => [index('rule_templates_name_idx').on(t.name, t.id)],
);

export const rules = pgTable(
  'rules',
  {
    id: serialId(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => folders.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    /** Scheduled runs record and mail what they would do and change nothing. */
    notifyOnly: boolean('notify_only').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: instant('deleted_at'),
    /** 7 days (Sunday first) × 24 hours of booleans. */
    schedule: jsonb('schedule').$type<boolean[][]>().notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    /** 24 booleans. */
    alertSchedule: jsonb('alert_schedule').$type<boolean[]>().notNull(),
    lastAlertAt: instant('last_alert_at'),
    /** How the rule judges late data (shared/judging.ts); rules older than it hold the carried-over values. */
    judging: jsonb('judging').$type<RuleJudging>().notNull().default(NEW_RULE_JUDGING),
    /** The rule's conditions (shared/ruleConditions.ts): the top group, or null for none. */
    conditions: jsonb('conditions').$type<ConditionGroup>(),
    /** What the conditions do (shared/ruleActions.ts); null: none (the task cards turn off). */
    action: jsonb('action').$type<RuleAction>(),
    /**
     * The failing-rule switch counts failed runs started after this instant: set when the rule
     * switched itself to notify only, so a person switching it back gives it a fresh count.
     */
    failuresCountedFrom: instant('failures_counted_from'),
    /** The template the rule follows; null: its own. Its values are the rule's own columns and items. */
    templateId: integer('template_id').references(() => ruleTemplates.id, { onDelete: 'set null' }),
    /** The fields this folder overrides (shared/templates.ts); every other one follows the template. */
    templateOverrides: jsonb('template_overrides').$type<TemplateField[]>().notNull().default([]),
    createdAt: instantNow('created_at'),
    updatedAt: instantNow('updated_at'),
  },
  (t) => [
    index('rules_folder_idx').on(t.folderId, t.isDeleted),
    index('rules_template_idx').on(t.templateId).where(sql`${t.templateId} is not null`),
    index('rules_active_idx').on(t.isActive, t.isDeleted),
    index('rules_trash_folder_idx').on(t.folderId, t.deletedAt).where(sql`${t.isDeleted}`),
  ],
);

/**
 * Filter and task items of a rule (docs/contract.md#entities): type is rule_filter or rule_task, one row per item
 * name. The names and the JSON shape of `values` are documented in shared/rules.ts.
 */
export const ruleItems = pgTable(
  'rule_items',
  {
    id: serialId(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => rules.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    values: jsonb('values').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('rule_items_rule_name_unique').on(t.ruleId, t.name)],
);

/** The audit log (`/api/log/`): names are copied at write time so entries outlive what they describe. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serialId(),
    timestamp: instantNow('timestamp'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actor: text('actor').notNull().default(''),
    folderId: integer('folder_id'),
    folderName: text('folder_name'),
    metaAdAccountName: text('meta_ad_account_name'),
    ruleId: integer('rule_id'),
    ruleName: text('rule_name'),
    action: text('action').notNull(),
    changesText: text('changes_text').notNull().default(''),
    /**
     * The entry's free text (action, changes) in one text for one trigram index (migration 0012).
     * The names (actor, folder, ad account, rule) repeat across entries, so the search matches them
     * in audit_log_names and finds their entries through the names' b-tree indexes instead.
     */
    searchText: text('search_text').generatedAlwaysAs(sql`action || E'\\n' || changes_text`),
  },
  (t) => [
    index('audit_log_timestamp_idx').on(t.timestamp, t.id),
    // A folder's or rule's entries with their order and id: the page's ids are an index-only scan.
    index('audit_log_folder_idx').on(t.folderId, t.timestamp, t.id),
    index('audit_log_rule_idx').on(t.ruleId, t.timestamp, t.id),
    // The Log's sorts (Client / Ad account → folder name, Responsible, Ad account name, Action,
    // Rule), each tie broken by id in the same direction, so one index serves both directions.
    // changes_text has none: free text may outgrow a btree entry.
    index('audit_log_folder_name_idx').on(t.folderName, t.id),
    index('audit_log_actor_idx').on(t.actor, t.id),
    index('audit_log_meta_ad_account_name_idx').on(t.metaAdAccountName, t.id),
    index('audit_log_action_idx').on(t.action, t.id),
    index('audit_log_rule_name_idx').on(t.ruleName, t.id),
    // A search by a name in the default time sort: one name's entries in order (a deep page is an
    // index-only walk), several names' read index-only and sorted (docs/bench.md).
    index('audit_log_actor_time_idx').on(t.actor, t.timestamp, t.id),
    index('audit_log_folder_name_time_idx').on(t.folderName, t.timestamp, t.id),
    index('audit_log_account_name_time_idx').on(t.metaAdAccountName, t.timestamp, t.id),
    index('audit_log_rule_name_time_idx').on(t.ruleName, t.timestamp, t.id),
    // Sorted by action, then by time either way: each action holds hundreds of thousands of entries,
    // too many to sort by time on each request.
    index('audit_log_action_time_idx').on(t.action, t.timestamp, t.id),
    index('audit_log_action_time_desc_idx').on(t.action, t.timestamp.desc().nullsFirst(), t.id),
    // Sorted by person, then by time the other way (the same way is audit_log_actor_time_idx).
    index('audit_log_actor_time_desc_idx').on(t.actor, t.timestamp.desc().nullsFirst(), t.id),
    // One person's entries (tens of thousands) in the action, folder and rule sorts: walked in order
    // to a deep page rather than read whole and sorted.
    index('audit_log_actor_action_idx').on(t.actor, t.action, t.id),
    index('audit_log_actor_folder_name_idx').on(t.actor, t.folderName, t.id),
    index('audit_log_actor_rule_name_idx').on(t.actor, t.ruleName, t.id),
  ],
);

/**
 * Every name the audit log holds, once per column it appears in (kind: actor, folder, account or
 * rule), kept by a trigger on audit_log inserts (migration 0012). A million entries hold a few
 * thousand names: the Log's search matches the text against these and reaches the entries by the
 * names' b-tree indexes, where a trigram index over the entries would read the long posting lists
 * of names repeated in every entry. `name_lower` makes the match a plain LIKE (ILIKE folds case per
 * row and per call, ten times slower here).
 */
export const auditLogNames = pgTable(
  'audit_log_names',
  {
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    nameLower: text('name_lower').generatedAlwaysAs(sql`lower(name)`),
  },
  (t) => [primaryKey({ columns: [t.kind, t.name] })],
);

import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { instant, instantNow, serialId } from './columns';
import { folders } from './rules';

/**
 * The key a folder's CRM posts its lead outcomes with (`POST /api/lead_outcomes/`,
 * server/outcomes/crmKeys.ts): one per folder, shown once when made, stored only as its SHA-256.
 * Rotating replaces the row; revoking deletes it.
 */
export const outcomeKeys = pgTable('outcome_keys', {
  id: serialId(),
  folderId: integer('folder_id')
    .notNull()
    .unique('outcome_keys_folder_unique')
    .references(() => folders.id, { onDelete: 'cascade' }),
  /** SHA-256 (hex) of the key. */
  keyHash: text('key_hash').notNull().unique('outcome_keys_hash_unique'),
  /** The key's last four characters, so a person can tell which key a CRM holds. */
  keyHint: text('key_hint').notNull(),
  createdAt: instantNow('created_at'),
  createdBy: integer('created_by'),
  lastUsedAt: instant('last_used_at'),
});

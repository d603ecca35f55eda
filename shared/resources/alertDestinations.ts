/**
 * Alert destinations: Slack-compatible incoming webhooks that rule alerts are posted to, for every
 * folder or for one. The webhook address is a secret (whoever holds it can post to the channel):
 * it is stored encrypted and only ever answered masked. Each keeps its last delivery (an alert's or
 * a test's: when, the answer's code, the problem) and its failures since the last one that got
 * through, written by the delivery queue and by Send a test (server/alerts/lastDelivery.ts).
 */
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { defineResource } from './spec';

export default defineResource({
  name: 'alert_destinations',
  table: 'alert_destinations',
  path: 'alert_destinations/',
  labels: { one: 'Alert destination', many: 'Alert destinations' },
  about:
    'Slack-compatible incoming webhooks that receive the alerts besides the mail: digests, held runs with their Approve link, and platform-health problems — of every folder, or of one.',
  fields: {
    name: { kind: 'text', label: 'Name', max: 100, list: true, sortable: true },
    folder_id: {
      kind: 'reference',
      label: 'Folder',
      path: 'general_page/',
      optionText: 'name',
      table: 'folders',
      goneColumn: 'is_deleted',
      optional: true,
      emptyText: 'Every folder',
      help: 'Leave empty to receive the alerts of every folder.',
      list: true,
    },
    url: {
      kind: 'secret',
      https: true,
      label: 'Webhook URL',
      help: 'A Slack-compatible incoming webhook (https://hooks.slack.com/services/…). Once saved it is shown masked.',
      list: true,
    },
    is_active: { kind: 'boolean', label: 'Active', default: true, list: true },
    // Shown together in the list's Last delivery column (src/resources/alertDestinations/).
    last_delivery_at: { kind: 'datetime', label: 'Last delivery', readOnly: true },
    last_delivery_source: { kind: 'text', label: 'Last delivery was', readOnly: true },
    last_answer_code: { kind: 'integer', label: 'Answer code', readOnly: true },
    last_delivery_error: { kind: 'text', label: 'Last problem', readOnly: true },
    consecutive_failures: { kind: 'integer', label: 'Failures in a row', readOnly: true },
  },
  access: { read: ['read_rules'], change: ['create_update_rules'] },
  search: ['name'],
  list: { ordering: 'name', perPage: 25, maxPerPage: 100 },
  menu: { order: 50, icon: () => import('@mui/icons-material/Webhook') },
});

// A pure call, so the browser's build drops the table (and drizzle) from the bundle.
export const table = /* @__PURE__ */ (() =>
  pgTable(
    'alert_destinations',
    {
      id: serial('id').primaryKey(),
      name: text('name').notNull(),
      /** null: every folder. */
      folder_id: integer('folder_id'),
      /** The webhook address, encrypted (server/rules/credentials.ts). */
      url: text('url').notNull(),
      is_active: boolean('is_active').notNull().default(true),
      /** Its last delivery (an alert's post or a test): when, what it was, the answer's status, the problem. */
      last_delivery_at: timestamp('last_delivery_at', { withTimezone: true }),
      last_delivery_source: text('last_delivery_source'),
      last_answer_code: integer('last_answer_code'),
      last_delivery_error: text('last_delivery_error'),
      /** Deliveries that failed since the last one that got through. */
      consecutive_failures: integer('consecutive_failures').notNull().default(0),
      created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('alert_destinations_folder_idx').on(t.folder_id)],
  ))();

/**
 * Alert deliveries: each alert's post to each webhook destination (server/alerts/deliveryQueue.ts),
 * read-only — its status, attempts, the answer's HTTP code and when it was last tried. Neither the
 * URL nor the remote's answer is kept. Its table, webhook_deliveries, is in server/db/schema/alerts.ts.
 */
import { defineResource } from './spec';

const readOnly = { readOnly: true, list: true } as const;

export default defineResource({
  name: 'alert_deliveries',
  table: 'webhook_deliveries',
  path: 'alert_deliveries/',
  labels: { one: 'Alert delivery', many: 'Alert deliveries' },
  about:
    'Each alert posted to each alert destination: queued, sent, retrying, failed or refused (an address that is not a public https one), with its attempts and the answer’s code.',
  fields: {
    created_at: { kind: 'datetime', label: 'Queued', column: 'createdAt', ...readOnly, sortable: true },
    source: { kind: 'text', label: 'Alert', ...readOnly },
    destination_name: { kind: 'text', label: 'Destination', column: 'destinationName', ...readOnly, sortable: true },
    state: { kind: 'text', label: 'Status', ...readOnly, sortable: true },
    answer_code: { kind: 'integer', label: 'Answer code', column: 'answerCode', ...readOnly },
    attempts: { kind: 'integer', label: 'Attempts', ...readOnly },
    last_attempt_at: { kind: 'datetime', label: 'Last attempt', column: 'lastAttemptAt', ...readOnly, sortable: true },
    error: { kind: 'text', label: 'Problem', ...readOnly },
  },
  access: { read: ['read_rules'] },
  search: ['destination_name'],
  list: { ordering: '-created_at', perPage: 25, maxPerPage: 100 },
  menu: { order: 51, icon: () => import('@mui/icons-material/MarkEmailRead') },
});

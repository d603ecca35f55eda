/**
 * Approvals (/approvals): one queue of the held runs waiting for a decision that the signed-in
 * person may decide, across folders, most money at stake first (GET /api/approvals/). Open to
 * whoever may change rules; the server keeps each person to their folders and approval limit.
 */
import FactCheck from '@mui/icons-material/FactCheck';
import { lazy } from 'react';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'approvals',
  endpoint: { path: 'approvals/' },
  list: lazy(() => import('./ApprovalList')),
  icon: FactCheck,
  i18n,
  access: { list: 'create_update_rules' },
  // Below the other entries of the side panel.
  menu: { order: 90 },
});

/** The Activity resource (/activity): the rule log's endpoint, its screen, its labels, its permission. */
import BoltIcon from '@mui/icons-material/Bolt';
import { lazy } from 'react';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'activity',
  endpoint: {
    path: 'rule_log/',
    filters: { rule_id: 'rule_id_in', folder_id: 'folder_id_in', ad_id: 'ad_id_in' },
  },
  list: lazy(() => import('./ActivityList')),
  icon: BoltIcon,
  i18n,
  access: { list: 'view_logs' },
});

/** The Log resource: its endpoint, its screen, its labels, its permission. */
import HistoryIcon from '@mui/icons-material/History';
import { lazy } from 'react';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'log',
  endpoint: {
    path: 'log/',
    filters: { rule_id: 'rule_id_in', folder_id: 'folder_id_in' },
    ordering: { ad_account: 'folder_name' },
  },
  list: lazy(() => import('./LogList')),
  icon: HistoryIcon,
  i18n,
  access: { list: 'view_logs' },
});

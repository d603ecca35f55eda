/** The Ads resource (/ads): the ads list's endpoint, its screen, its labels, its permission. */
import AdsClickIcon from '@mui/icons-material/AdsClick';
import { lazy } from 'react';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'ads',
  endpoint: { path: 'ads/' },
  list: lazy(() => import('./AdList')),
  icon: AdsClickIcon,
  i18n,
  access: { list: 'view_logs' },
});

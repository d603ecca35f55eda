/** The Campaigns resource (/campaigns): its endpoint, its screen, its permission. Labels: src/i18n/en/campaigns.ts. */
import CampaignIcon from '@mui/icons-material/Campaign';
import { lazy } from 'react';
import { defineResourceFolder } from '../types';

export default defineResourceFolder({
  name: 'campaigns',
  endpoint: { path: 'campaigns/', idField: 'campaign_id' },
  list: lazy(() => import('./CampaignList')),
  icon: CampaignIcon,
  access: { '*': 'add_edit_campaigns' },
  menu: { order: 20, label: 'app.nav.campaigns', deniedReason: 'app.nav.campaigns_denied' },
});

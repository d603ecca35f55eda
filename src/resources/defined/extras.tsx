/**
 * What a resource defined in one file shows beyond its fields, by resource name: one more list
 * column (its header a translation key, its cell given the row), a panel under the edit form, and
 * its card on a phone (PhoneCards.tsx: the title field and the key fields, some drawn their own way).
 * The definitions stay plain data (shared with the server); their screens' extras are named here.
 */
import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import adAccounts from '../../../shared/resources/adAccounts';
import alertDestinations from '../../../shared/resources/alertDestinations';
import { DeliveryCell, DeliveryPanel } from '../alertDestinations/DeliveryColumn';
import { AccountHealthChip } from './AccountHealthChip';

export interface DefinedExtras {
  column?: { label: string; Cell: ComponentType<{ record: RaRecord & { id: number } }> };
  EditPanel?: ComponentType;
  card?: {
    title: string;
    fields: string[];
    Value?: Record<string, ComponentType<{ record: RaRecord }> | undefined>;
  };
}

export const definedExtras: Record<string, DefinedExtras | undefined> = {
  // The last delivery (time, answer code, failures in a row) and Send a test.
  [alertDestinations.name]: {
    column: { label: 'alerts.last_delivery.column', Cell: DeliveryCell },
    EditPanel: DeliveryPanel,
  },
  // Its health first: a media buyer on a phone looks for the account whose runs are held.
  [adAccounts.name]: {
    card: {
      title: 'account_name',
      fields: ['health', 'ad_account_id', 'campaigns_synced_at', 'campaign_sync_error'],
      Value: { health: AccountHealthChip },
    },
  },
};

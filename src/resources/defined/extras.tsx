/**
 * What a resource defined in one file shows beyond its fields, by resource name: one more list
 * column (its header a translation key, its cell given the row), and a panel under the edit form.
 * The definitions stay plain data (shared with the server); their screens' extras are named here.
 */
import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import alertDestinations from '../../domain/resources/alertDestinations';
import { DeliveryCell, DeliveryPanel } from '../alertDestinations/DeliveryColumn';

export interface DefinedExtras {
  column?: { label: string; Cell: ComponentType<{ record: RaRecord & { id: number } }> };
  EditPanel?: ComponentType;
}

export const definedExtras: Record<string, DefinedExtras | undefined> = {
  // The last delivery (time, answer code, failures in a row) and Send a test.
  [alertDestinations.name]: {
    column: { label: 'alerts.last_delivery.column', Cell: DeliveryCell },
    EditPanel: DeliveryPanel,
  },
};

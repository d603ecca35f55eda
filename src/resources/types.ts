/**
 * What a resource folder declares in its index: its views and its API endpoint together, so adding
 * a resource is one folder that App.tsx and the dataProvider pick up with nothing else edited.
 */
import type { ComponentType, ReactElement } from 'react';
import type { RaRecord } from 'react-admin';
import type { ResourceEndpoint } from '../../shared/resourceEndpoint';
import type { SidePanelEntry, UserMenuEntry } from '../layout/resourceNavigation';
import type { AccessAction, AccessRule } from '../providers/canAccess';

type View = ComponentType | ReactElement;

export interface ResourceDefinition {
  /** react-admin resource name; also its route: /<name>. */
  name: string;
  endpoint: ResourceEndpoint;
  list?: View;
  edit?: View;
  create?: View;
  show?: View;
  icon?: ComponentType;
  options?: { label?: string } & Record<string, unknown>;
  recordRepresentation?: string | ReactElement | ((record: RaRecord) => string);
  /** i18n messages merged into the app's (e.g. `{ resources: { log: { name: 'Log' } } }`). */
  i18n?: Record<string, unknown>;
  /** The permission each react-admin action needs (docs/contract.md#permissions). */
  access?: Partial<Record<AccessAction, AccessRule>>;
  /** Its entry in the side panel. */
  menu?: SidePanelEntry;
  /** Its entry in the header's user menu. */
  userMenu?: UserMenuEntry;
}

/**
 * A resource folder's definition (src/resources/<name>/index.ts: views written for it). A plain list
 * with a form is one file of shared/resources instead, with that folder's own `defineResource`.
 */
export const defineResourceFolder = <T extends ResourceDefinition>(definition: T) => definition;

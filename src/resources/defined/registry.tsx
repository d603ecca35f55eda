/**
 * The browser's side of the resources defined in one file (shared/resources/): each becomes a
 * resource of the registry — its endpoint, generated list, create and edit views, icon, menu
 * entry, labels and access rules — with nothing written for it here.
 */
import { lazy } from 'react';
import type { ResourceSpec } from '../../../shared/resources/define';
import type { ResourceDefinition } from '../types';

// Only the definitions: their tables stay on the server (tree-shaken from the bundle).
const specs = import.meta.glob<ResourceSpec | undefined>(
  ['../../../shared/resources/*.ts', '!**/define.ts', '!**/spec.ts'],
  {
    eager: true,
    import: 'default',
  },
);

const DefinedList = lazy(() => import('./DefinedList').then((m) => ({ default: m.DefinedList })));
const DefinedCreate = lazy(() => import('./DefinedForm').then((m) => ({ default: m.DefinedCreate })));
const DefinedEdit = lazy(() => import('./DefinedForm').then((m) => ({ default: m.DefinedEdit })));

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function labelsOf(spec: ResourceSpec) {
  const { one, many } = spec.labels;
  return {
    resources: {
      [spec.name]: {
        name: `${one} |||| ${many}`,
        page: many,
        create_page: `New ${lower(one)}`,
        edit_page: `Edit ${lower(one)}`,
        search: `Search ${lower(many)}`,
        fields: Object.fromEntries(Object.entries(spec.fields).map(([name, field]) => [name, field.label])),
        notifications: { created: `${one} added`, updated: `${one} saved`, deleted: `${one} deleted` },
      },
    },
  };
}

export function resourceOf(spec: ResourceSpec): ResourceDefinition {
  const { read, change } = spec.access;
  return {
    name: spec.name,
    endpoint: { path: spec.path, ...(spec.idField ? { idField: spec.idField } : {}) },
    list: <DefinedList spec={spec} />,
    ...(change ? { create: <DefinedCreate spec={spec} />, edit: <DefinedEdit spec={spec} /> } : {}),
    ...(spec.menu ? { icon: lazy(spec.menu.icon), menu: { order: spec.menu.order } } : {}),
    i18n: labelsOf(spec),
    access: {
      list: read,
      show: read,
      ...(change ? { create: change, edit: change, delete: change } : {}),
    },
    recordRepresentation: (record) => String(record.name ?? record.account_name ?? record.id),
  };
}

export const definedResources: ResourceDefinition[] = Object.values(specs)
  .filter((spec): spec is ResourceSpec => Boolean(spec?.name && spec.fields))
  .map(resourceOf);

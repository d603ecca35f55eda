/**
 * The resource registry: every folder here with an index.ts(x) that default-exports a
 * ResourceDefinition becomes a <Resource> and a dataProvider endpoint. Nothing else to edit.
 */
import type { AccessRules } from '../providers/canAccess';
import type { ResourceDefinition, ResourceEndpoint } from './types';

export type { ResourceDefinition, ResourceEndpoint } from './types';
export { defineResource } from './types';

const modules = import.meta.glob<{ default: ResourceDefinition }>('./*/index.{ts,tsx}', { eager: true });

export const resources: ResourceDefinition[] = Object.values(modules)
  .map((module) => module.default)
  .filter((definition): definition is ResourceDefinition => Boolean(definition?.name && definition.endpoint))
  .sort((a, b) => a.name.localeCompare(b.name));

export const endpointsOf = (list: ResourceDefinition[]): Record<string, ResourceEndpoint> =>
  Object.fromEntries(list.map((r) => [r.name, r.endpoint]));

export const accessRulesOf = (list: ResourceDefinition[]): AccessRules =>
  Object.fromEntries(list.filter((r) => r.access).map((r) => [r.name, r.access!]));

export const messagesOf = (list: ResourceDefinition[]): Record<string, unknown>[] =>
  list.flatMap((r) => (r.i18n ? [r.i18n] : []));

/**
 * The records the custom pages read and write with the dataProvider's own methods (getOne, create,
 * delete) though they have no <Resource>: a folder of the general page, a rule of the editor, an
 * item of the trash. App.tsx gives them to the dataProvider beside the registry's resources.
 */
import type { ResourceEndpoint } from '../../shared/resourceEndpoint';

export const pageEndpoints: Record<string, ResourceEndpoint> = {
  general_page: { path: 'general_page/' },
  trash_page: { path: 'trash_page/' },
  rule: { path: 'rule/' },
};

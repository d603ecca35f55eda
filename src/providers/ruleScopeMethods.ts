/**
 * The dataProvider's calls for a permission group's rule folders (src/resources/permissions/): the
 * folders a search finds, and one folder by id (the names of those already chosen).
 */
import type { FolderDto } from '../../shared/folders';
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export interface FolderOption {
  id: number;
  name: string;
}

const optionOf = (folder: FolderDto): FolderOption => ({ id: folder.id, name: folder.name });

export function createRuleScopeMethods(http: HttpClient) {
  return {
    /** Live folders whose name (or ad account's) holds `search`, by name: the first `limit`. */
    searchFolderOptions: async (search: string, limit: number, signal?: AbortSignal) => {
      const query = new URLSearchParams({ limit: String(limit), offset: '0', ordering: 'name' });
      if (search.trim()) query.set('search', search.trim());
      const { json } = await http<{ results: FolderDto[] }>(`${paths.generalPage}?${query}`, { signal });
      return json.results.map(optionOf);
    },
    /** One folder's id and name; null when it is gone. */
    getFolderOption: async (id: number, signal?: AbortSignal): Promise<FolderOption | null> => {
      try {
        return optionOf((await http<FolderDto>(paths.generalPageFolder(id), { signal })).json);
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
  };
}

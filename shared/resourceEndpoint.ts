/**
 * Where a react-admin resource's records are on the API (docs/contract.md#calls, #conventions): what
 * the dataProvider needs to list, read, create, change and delete them. Declared by each resource
 * of the registry (src/resources) and by the custom pages' records (src/custom-pages/endpoints.ts).
 */
export interface ResourceEndpoint {
  /** List path under /api/, as docs/contract.md#calls writes it: 'log/' → /api/log/. One record: `${path}${id}/`. */
  path: string;
  /** react-admin filter name → query parameter (e.g. rule_id → rule_id_in). `q` is always `search`. */
  filters?: Record<string, string>;
  /** react-admin sort field → ordering key (e.g. ad_account → folder_name). */
  ordering?: Record<string, string>;
  /** The record field that is its id, when it is not `id` (e.g. campaign_id). */
  idField?: string;
  /**
   * Where a new record is POSTed when not to `path`, and the key of the answer that holds the record
   * when the answer is not the record itself (an invitation: `{detail, invitation}`). `answerOnly`:
   * the answer is the whole record, nothing sent is kept beside it (a secret sent once).
   */
  create?: { path: string; recordIn?: string; answerOnly?: boolean };
}

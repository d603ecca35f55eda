/** A permission group as /api/groups/ answers it (docs/contract.md#entities). */
export interface PermissionGroup {
  id: number;
  name: string;
  group_access: { accesses: string[] };
}

/** A permission group as /api/groups/ answers it (SPEC §3). */
export interface PermissionGroup {
  id: number;
  name: string;
  group_access: { accesses: string[] };
}

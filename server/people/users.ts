/** Users as the API shows them (docs/contract.md#entities), with their groups in order and their accesses. */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups, userGroups, users } from '../db/schema/index';
import type { GroupDto, UserDto } from '../../shared/contracts';
import type { AuditActor } from '../audit/log';
import { effectivePermissions, type Permission } from '../../shared/permissions';

export type { GroupDto, UserDto };

export interface AuthUser extends UserDto {
  permissions: Set<Permission>;
  /** The version access tokens must carry (tokens.ts). */
  sessionVersion: number;
}

export type UserRow = typeof users.$inferSelect;

export const toGroupDto = (g: typeof groups.$inferSelect): GroupDto => ({
  id: g.id,
  name: g.name,
  group_access: { accesses: [...g.accesses] },
  rule_folders: g.ruleFolderIds ? [...g.ruleFolderIds] : null,
  approval_limit: g.approvalLimit === null ? null : Number(g.approvalLimit),
});

async function groupsByUser(db: Database, userIds: number[]): Promise<Map<number, GroupDto[]>> {
  const byUser = new Map<number, GroupDto[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return byUser;
  const rows = await db
    .select({ userId: userGroups.userId, group: groups })
    .from(userGroups)
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(inArray(userGroups.userId, userIds))
    .orderBy(asc(userGroups.position), asc(groups.id));
  for (const row of rows) byUser.get(row.userId)?.push(toGroupDto(row.group));
  return byUser;
}

function toUserDto(row: UserRow, userGroupsList: GroupDto[]): UserDto {
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    is_superuser: row.isSuperuser,
    is_staff: row.isStaff,
    is_active: row.isActive,
    phone: row.phone,
    email: row.email,
    account: row.id,
    groups: userGroupsList,
  };
}

/** Serialises many users with one query for all their groups. */
export async function toUserDtos(db: Database, rows: UserRow[]): Promise<UserDto[]> {
  const byUser = await groupsByUser(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toUserDto(row, byUser.get(row.id) ?? []));
}

/** A user row as the audit log names its actor. */
export const auditActorOf = (row: UserRow): AuditActor => ({
  id: row.id,
  first_name: row.firstName,
  last_name: row.lastName,
  email: row.email,
});

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row;
}

export async function loadUserDto(db: Database, id: number): Promise<UserDto | undefined> {
  const row = await findUserById(db, id);
  return row ? (await toUserDtos(db, [row]))[0] : undefined;
}

export async function loadAuthUser(db: Database, id: number): Promise<AuthUser | undefined> {
  const row = await findUserById(db, id);
  if (!row) return undefined;
  const [dto] = await toUserDtos(db, [row]);
  return { ...dto!, permissions: effectivePermissions(dto!), sessionVersion: row.sessionVersion };
}

/** What each of these users holds (effectivePermissions), by id. */
export async function permissionsOf(db: Database, userIds: number[]): Promise<Map<number, Set<Permission>>> {
  if (!userIds.length) return new Map();
  const rows = await db.select().from(users).where(inArray(users.id, userIds));
  const dtos = await toUserDtos(db, rows);
  return new Map(dtos.map((dto) => [dto.id, effectivePermissions(dto)]));
}

/** The templates' list (how many folders follow each) and one template with its followers and lookalikes. */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { ruleTemplates, rules } from '../db/schema/index';
import { searchAny } from '../http/search';
import { differingFields, type TemplateDto, type TemplateListRow } from '../../shared/templates';
import { mayEditIn, readOnlyReason, type EditScope } from './access';
import { followersOf, isLive, lookalikesOf } from './followers';
import { requireTemplate } from './templateRows';

/** Who is looking: where they may edit rules, and whether they may edit rules at all. */
export interface Viewer {
  actor: AuditActor;
  scope: EditScope;
  canEditRules: boolean;
}

const iso = (d: Date) => d.toISOString();

/** Per template, how many live rules follow it and how many of those override something. */
const followerCounts = (db: Database) =>
  db
    .select({
      templateId: rules.templateId,
      folders: sql<number>`count(*)::int`.as('folders'),
      overriding: sql<number>`count(*) filter (where jsonb_array_length(${rules.templateOverrides}) > 0)::int`.as(
        'overriding',
      ),
    })
    .from(rules)
    .where(and(eq(rules.isDeleted, false), sql`${rules.templateId} is not null`))
    .groupBy(rules.templateId)
    .as('followers');

/** The list's order: by name, updated_at or folders (`-` first: descending), the id breaking ties. */
function listOrder(ordering: string | undefined, followers: ReturnType<typeof followerCounts>) {
  const descending = ordering?.startsWith('-');
  const key = ordering?.replace(/^-/, '');
  const direction = descending ? desc : asc;
  const byFolders = descending ? sql`coalesce(${followers.folders}, 0) desc` : sql`coalesce(${followers.folders}, 0)`;
  const first =
    key === 'updated_at'
      ? direction(ruleTemplates.updatedAt)
      : key === 'folders'
        ? byFolders
        : direction(ruleTemplates.name);
  return [first, asc(ruleTemplates.id)];
}

export function templateReadsOf(db: Database) {
  async function list(options: { limit: number; offset: number; search?: string; ordering?: string }) {
    const followers = followerCounts(db);
    const where = searchAny(options.search, [ruleTemplates.name]);
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: ruleTemplates.id,
          name: ruleTemplates.name,
          updatedAt: ruleTemplates.updatedAt,
          folders: followers.folders,
          overriding: followers.overriding,
        })
        .from(ruleTemplates)
        .leftJoin(followers, eq(followers.templateId, ruleTemplates.id))
        .where(where)
        .orderBy(...listOrder(options.ordering, followers))
        .limit(options.limit)
        .offset(options.offset),
      db.select({ n: count() }).from(ruleTemplates).where(where),
    ]);
    const results: TemplateListRow[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      folders: r.folders ?? 0,
      overriding_folders: r.overriding ?? 0,
      updated_at: iso(r.updatedAt),
    }));
    return { count: total?.n ?? 0, results };
  }

  async function find(id: number, viewer: Omit<Viewer, 'actor'>): Promise<TemplateDto> {
    const template = await requireTemplate(db, id);
    const followers = (await followersOf(db, id)).filter(isLive);
    const lookalikes = await lookalikesOf(db, template.values);
    const reason = readOnlyReason(viewer.scope, viewer.canEditRules, followers);
    const editable = (folderId: number) => viewer.canEditRules && mayEditIn(viewer.scope, folderId);
    return {
      id: template.id,
      name: template.name,
      values: template.values,
      folders: followers.map((f) => ({
        folder: { id: f.folderId, name: f.folderName },
        account_name: f.accountName,
        rule: { id: f.ruleId, name: f.ruleName, is_active: f.isActive },
        overrides: f.overrides,
        editable: editable(f.folderId),
      })),
      lookalikes: lookalikes.map(({ loaded, values }) => ({
        folder: { id: loaded.folder.id, name: loaded.folder.name },
        rule: { id: loaded.rule.id, name: loaded.rule.name },
        differs: differingFields(template.values, values),
        editable: editable(loaded.folder.id),
      })),
      can_edit: reason === null,
      read_only_reason: reason,
      created_at: iso(template.createdAt),
      updated_at: iso(template.updatedAt),
    };
  }

  return { list, find };
}

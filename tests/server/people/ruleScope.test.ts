/**
 * Folder scope and approval limits of permission groups, as a matrix through the API: a superuser,
 * an unscoped editor, an editor scoped to Folder A, a read-only member and a junior whose group may
 * approve up to $500/day — each editing a rule in Folder A and in Folder B, approving a held run
 * under and over $500/day, dismissing one in each folder, and widening a group beyond their own
 * scope. Refusals are 403 `{detail}` that say why; an over-limit run stays held for someone allowed.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, folders, groups, ruleRuns, rules, userGroups } from '../../../server/db/schema/index';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { mayApprove, mayEditRulesIn, ruleScopeFrom, ruleScopeOf } from '../../../server/people/ruleScope';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { FakePlatform, quietLog, seedAccount, seedRule } from '../run/support';

type Actor = 'superuser' | 'unscoped editor' | 'scoped editor' | 'read-only' | 'junior';
type Action =
  | 'edit rule in Folder A'
  | 'edit rule in Folder B'
  | 'approve $450/day in Folder A'
  | 'approve $1,240/day in Folder A'
  | 'dismiss in Folder A'
  | 'dismiss in Folder B'
  | 'widen a group to every folder, no limit';

const ok = 200;
const EDIT_ONLY_A = 'Your permission group may edit rules only in: Folder A.';
const OVER_LIMIT =
  'This run releases $1,240/day; your group may approve up to $500/day. Someone allowed more must approve it.';
const DENIED = 'You do not have permission to perform this action.';

/** What each actor gets: a status, and for a refusal the detail that says why. */
const MATRIX: Record<Actor, Record<Action, number | string>> = {
  superuser: {
    'edit rule in Folder A': ok,
    'edit rule in Folder B': ok,
    'approve $450/day in Folder A': ok,
    'approve $1,240/day in Folder A': ok,
    'dismiss in Folder A': ok,
    'dismiss in Folder B': ok,
    'widen a group to every folder, no limit': ok,
  },
  'unscoped editor': {
    'edit rule in Folder A': ok,
    'edit rule in Folder B': ok,
    'approve $450/day in Folder A': ok,
    'approve $1,240/day in Folder A': ok,
    'dismiss in Folder A': ok,
    'dismiss in Folder B': ok,
    'widen a group to every folder, no limit': ok,
  },
  'scoped editor': {
    'edit rule in Folder A': ok,
    'edit rule in Folder B': EDIT_ONLY_A,
    'approve $450/day in Folder A': ok,
    'approve $1,240/day in Folder A': ok,
    'dismiss in Folder A': ok,
    'dismiss in Folder B': EDIT_ONLY_A,
    'widen a group to every folder, no limit':
      'You may give create update rules only in your own folders (Folder A): choose folders among them.',
  },
  'read-only': {
    'edit rule in Folder A': DENIED,
    'edit rule in Folder B': DENIED,
    'approve $450/day in Folder A': DENIED,
    'approve $1,240/day in Folder A': DENIED,
    'dismiss in Folder A': DENIED,
    'dismiss in Folder B': DENIED,
    'widen a group to every folder, no limit': DENIED,
  },
  junior: {
    'edit rule in Folder A': ok,
    'edit rule in Folder B': ok,
    'approve $450/day in Folder A': ok,
    'approve $1,240/day in Folder A': OVER_LIMIT,
    'dismiss in Folder A': ok,
    'dismiss in Folder B': ok,
    'widen a group to every folder, no limit':
      'You may give an approval limit of at most $500/day, your own: set one no higher.',
  },
};

const EDITOR = ['read_rules', 'create_update_rules', 'delete_rules', 'update_permissions'] as const;

eachDatabase((engine) => {
  describe(`rule scope and approval limits on ${engine}`, () => {
    let api: TestApi;
    let platform: FakePlatform;
    let admin: TestUser;
    const users = {} as Record<Actor, TestUser>;
    let folderA: { id: number; account: string };
    let folderB: { id: number; account: string };
    let ruleA: number;
    let ruleB: number;
    let target: number;
    let tag = 0;

    const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      api.request(user.token, { method, url, ...(payload ? { payload } : {}) });

    /** Sets the scope of the user's own group. */
    async function scopeUser(user: TestUser, ruleFolderIds: number[] | null, approvalLimit: number | null) {
      const [membership] = await api.dbh.db.select().from(userGroups).where(eq(userGroups.userId, user.id));
      await api.dbh.db.update(groups).set({ ruleFolderIds, approvalLimit }).where(eq(groups.id, membership!.groupId));
    }

    async function newFolder(name: string) {
      const account = (await seedAccount(api.dbh.db)).adAccountId;
      const { folder, rule } = await seedRule(api.dbh.db, account, { folderName: name });
      return { folder: { id: folder.id, account }, rule: rule.id };
    }

    /**
     * A held run of a new rule in `folder`: three ads of a campaign of its own, each over the
     * rule's $100 no-lead spend (the money at stake is what they have spent, their only reading).
     */
    async function heldRun(folder: { id: number; account: string }, spends: number[]): Promise<number> {
      tag += 1;
      const campaign = `T${tag}X`;
      const { rule } = await seedRule(api.dbh.db, folder.account, {
        contains: [campaign],
        tasks: { spend_cpl_no_leads: { spend: '100' } },
      });
      await api.dbh.db.update(rules).set({ folderId: folder.id }).where(eq(rules.id, rule.id));
      platform.addCampaign(folder.account, campaign, `EDM ${campaign} 2026-03-04 6PM`);
      spends.forEach((spend, i) => {
        platform.addAd(folder.account, campaign, `${campaign}-ad${i}`, { spend: String(spend) });
      });
      const ran = await call(admin, 'POST', `/api/rules/${rule.id}/run_now/`);
      expect(ran.json().status, ran.body).toBe('held');
      const [run] = await api.dbh.db
        .select({ id: ruleRuns.id })
        .from(ruleRuns)
        .where(and(eq(ruleRuns.ruleId, rule.id), eq(ruleRuns.outcome, 'held')));
      return run!.id;
    }

    const decisionOf = async (runId: number) =>
      (await api.dbh.db.select({ decision: ruleRuns.decision }).from(ruleRuns).where(eq(ruleRuns.id, runId)))[0]!
        .decision;

    beforeAll(async () => {
      api = await createTestApi(engine);
      platform = new FakePlatform();
      // Every run that would turn anything off is held.
      api.app.ruleEngine = createRuleEngineService({
        db: api.dbh.db,
        client: platform,
        log: quietLog,
        limits: { maxShare: 0, maxActions: 1000 },
      });
      admin = await api.userWith('superuser');
      const a = await newFolder('Folder A');
      const b = await newFolder('Folder B');
      ({ folder: folderA, rule: ruleA } = a);
      ({ folder: folderB, rule: ruleB } = b);
      users.superuser = admin;
      users['unscoped editor'] = await api.userWith([...EDITOR]);
      users['scoped editor'] = await api.userWith([...EDITOR]);
      await scopeUser(users['scoped editor'], [folderA.id], null);
      users['read-only'] = await api.userWith(['read_rules']);
      users.junior = await api.userWith(['read_rules', 'create_update_rules', 'update_permissions']);
      await scopeUser(users.junior, null, 500);
      const [group] = await api.dbh.db
        .insert(groups)
        .values({
          name: 'Target',
          accesses: ['read_rules', 'create_update_rules'],
          ruleFolderIds: [folderA.id],
          approvalLimit: 300,
        })
        .returning();
      target = group!.id;
    });
    afterAll(() => api.close());

    beforeEach(async () => {
      await api.dbh.db
        .update(groups)
        .set({ ruleFolderIds: [folderA.id], approvalLimit: 300 })
        .where(eq(groups.id, target));
    });

    /** Does the action as the actor; answers the status, or the refusal's detail. */
    async function act(actor: Actor, action: Action): Promise<number | string> {
      const user = users[actor];
      let response: Awaited<ReturnType<typeof call>>;
      let runId: number | undefined;
      switch (action) {
        case 'edit rule in Folder A':
          response = await call(user, 'PATCH', `/api/rule/${ruleA}/`, { name: `Edited by ${actor} ${tag++}` });
          break;
        case 'edit rule in Folder B':
          response = await call(user, 'PATCH', `/api/rule/${ruleB}/`, { name: `Edited by ${actor} ${tag++}` });
          break;
        case 'approve $450/day in Folder A':
          runId = await heldRun(folderA, [150, 150, 150]);
          response = await call(user, 'POST', `/api/rule_runs/${runId}/approve/`);
          break;
        case 'approve $1,240/day in Folder A':
          runId = await heldRun(folderA, [400, 420, 420]);
          response = await call(user, 'POST', `/api/rule_runs/${runId}/approve/`);
          break;
        case 'dismiss in Folder A':
          runId = await heldRun(folderA, [150, 150, 150]);
          response = await call(user, 'POST', `/api/rule_runs/${runId}/dismiss/`);
          break;
        case 'dismiss in Folder B':
          runId = await heldRun(folderB, [150, 150, 150]);
          response = await call(user, 'POST', `/api/rule_runs/${runId}/dismiss/`);
          break;
        case 'widen a group to every folder, no limit':
          response = await call(user, 'PATCH', `/api/groups/${target}/`, { rule_folders: null, approval_limit: null });
          break;
      }
      if (response.statusCode === 200) {
        // A decision made is the one asked for; a refused one leaves the run waiting.
        if (runId !== undefined)
          expect(await decisionOf(runId)).toBe(action.startsWith('approve') ? 'approved' : 'dismissed');
        return 200;
      }
      expect(response.statusCode, response.body).toBe(403);
      if (runId !== undefined) expect(await decisionOf(runId)).toBeNull();
      return response.json().detail;
    }

    for (const actor of Object.keys(MATRIX) as Actor[]) {
      for (const [action, expected] of Object.entries(MATRIX[actor]) as [Action, number | string][]) {
        it(`${actor}: ${action} → ${typeof expected === 'number' ? expected : `403 "${expected}"`}`, async () => {
          expect(await act(actor, action)).toBe(expected);
        });
      }
    }

    it('an over-limit run refused to the junior stays held, and someone allowed more approves it', async () => {
      const runId = await heldRun(folderA, [400, 420, 420]);
      const refused = await call(users.junior, 'POST', `/api/rule_runs/${runId}/approve/`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: OVER_LIMIT });
      expect(platform.writes.filter((w) => w.id.startsWith(`T${tag}X`))).toEqual([]);
      const approved = await call(users['unscoped editor'], 'POST', `/api/rule_runs/${runId}/approve/`);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().turned_off).toBe(3);
    });

    it('a scoped editor cannot add, duplicate, trash, restore or run a rule outside their folders', async () => {
      const scoped = users['scoped editor'];
      const refusals = await Promise.all([
        call(scoped, 'POST', '/api/rule/', { folder: folderB.id }),
        call(scoped, 'POST', `/api/rules/${ruleB}/duplicate_rule/`),
        call(scoped, 'POST', `/api/rules/${ruleB}/move_to_trash/`),
        call(scoped, 'POST', `/api/rules/${ruleB}/restore/`),
        call(scoped, 'POST', `/api/rules/${ruleB}/run_now/`),
        call(scoped, 'POST', `/api/folders/${folderB.id}/move_to_trash/`),
        call(scoped, 'PATCH', `/api/general_page/${folderB.id}/`, { name: 'Renamed B' }),
      ]);
      for (const response of refusals) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().detail).toMatch(
          /^Your permission group may (edit|restore and delete) rules only in: Folder A\.$/,
        );
      }
      const [b] = await api.dbh.db.select().from(folders).where(eq(folders.id, folderB.id));
      expect(b).toMatchObject({ name: 'Folder B', isDeleted: false });
      const inOwn = await call(scoped, 'POST', '/api/rule/', { folder: folderA.id });
      expect(inOwn.statusCode, inOwn.body).toBe(201);
      const duplicated = await call(scoped, 'POST', `/api/rules/${ruleA}/duplicate_rule/`);
      expect(duplicated.statusCode, duplicated.body).toBe(201);
    });

    it('a scoped editor may narrow a group within their folders, and the log says what changed', async () => {
      const scoped = users['scoped editor'];
      const widened = await call(scoped, 'PATCH', `/api/groups/${target}/`, { rule_folders: [folderA.id, folderB.id] });
      expect(widened.statusCode).toBe(403);
      const within = await call(scoped, 'PATCH', `/api/groups/${target}/`, {
        rule_folders: [folderA.id],
        approval_limit: 250,
      });
      expect(within.statusCode, within.body).toBe(200);
      expect(within.json()).toMatchObject({ rule_folders: [folderA.id], approval_limit: 250 });
      const [entry] = await api.dbh.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
      expect(entry).toMatchObject({
        action: 'Updated group Target',
        changesText: 'approval limit: $300/day → $250/day',
      });
    });

    it('the junior may set a limit up to their own, not above', async () => {
      const up = await call(users.junior, 'PATCH', `/api/groups/${target}/`, { approval_limit: 500 });
      expect(up.statusCode, up.body).toBe(200);
      const over = await call(users.junior, 'PATCH', `/api/groups/${target}/`, { approval_limit: 501 });
      expect(over.statusCode).toBe(403);
      // A new group of rule accesses starts with no limit: more than the junior holds.
      const created = await call(users.junior, 'POST', '/api/groups/', {
        name: 'Juniors',
        group_access: { accesses: ['create_update_rules'] },
      });
      expect(created.statusCode).toBe(403);
    });

    it('a superuser widening a group is logged with the folders by name', async () => {
      const response = await call(admin, 'PATCH', `/api/groups/${target}/`, {
        rule_folders: [folderB.id, folderA.id],
        approval_limit: null,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ rule_folders: [folderA.id, folderB.id], approval_limit: null });
      const [entry] = await api.dbh.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
      expect(entry).toMatchObject({
        action: 'Updated group Target',
        changesText: 'rule folders: Folder A → Folder A, Folder B; approval limit: $300/day → no limit',
      });
    });

    it('refuses folders that do not exist or are in the trash, and a negative limit, under the field', async () => {
      const { folder: trashed } = await newFolder('Trashed');
      await api.dbh.db.update(folders).set({ isDeleted: true }).where(eq(folders.id, trashed.id));
      const gone = await call(admin, 'POST', '/api/groups/', { name: 'G', rule_folders: [trashed.id, 999_999] });
      expect(gone.statusCode).toBe(400);
      expect(gone.json()).toEqual({
        rule_folders: [
          `Folders ${[trashed.id, 999_999].sort((x, y) => x - y).join(', ')} do not exist or are in the trash.`,
        ],
      });
      const negative = await call(admin, 'POST', '/api/groups/', { name: 'G', approval_limit: -1 });
      expect(negative.statusCode).toBe(400);
      expect(negative.json()).toEqual({ approval_limit: ['The approval limit must be 0 or more.'] });
      const empty = await call(admin, 'POST', '/api/groups/', { name: 'G', rule_folders: [] });
      expect(empty.json()).toEqual({ rule_folders: ['Choose at least one folder, or All folders.'] });
    });

    it('ruleScopeOf: the union of the granting groups’ folders and their largest limit; any unscoped group, none', async () => {
      const [extra] = await api.dbh.db
        .insert(groups)
        .values({
          name: 'B editors',
          accesses: ['create_update_rules'],
          ruleFolderIds: [folderB.id],
          approvalLimit: 800,
        })
        .returning();
      const [readOnly] = await api.dbh.db
        .insert(groups)
        .values({ name: 'Readers', accesses: ['read_rules'] })
        .returning();
      const member = await api.userWith(['create_update_rules']);
      await scopeUser(member, [folderA.id], 500);
      await api.dbh.db.insert(userGroups).values([
        { userId: member.id, groupId: extra!.id, position: 1 },
        { userId: member.id, groupId: readOnly!.id, position: 2 },
      ]);
      const scope = await ruleScopeOf(api.dbh.db, member.id);
      expect(scope).toEqual({ folders: new Set([folderA.id, folderB.id]), approvalLimit: 800 });
      expect(mayEditRulesIn(scope, folderB.id)).toBe(true);
      expect(mayEditRulesIn(scope, folderB.id + 1000)).toBe(false);
      expect(mayApprove(scope, 800)).toBe(true);
      expect(mayApprove(scope, 800.01)).toBe(false);
      expect(await ruleScopeOf(api.dbh.db, admin.id)).toEqual({ folders: 'all', approvalLimit: null });
      // The read-only group's missing folders do not widen the scope of rule accesses.
      expect(ruleScopeFrom({ is_superuser: false, groups: [] })).toEqual({ folders: new Set(), approvalLimit: 0 });
    });
  });
});

import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../server/outcomes/crmParse';
import { emailHash } from '../../../server/webinar/emailHash';
import { CRM_UPLOAD_MAX_BYTES } from '../../../shared/leadOutcomes';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount, RULES_ADMIN } from '../rules/fixtures';

/** A day some days ago, as `YYYY-MM-DD` (outcomes older than the retention are refused). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const D1 = daysAgo(10);
const D2 = daysAgo(9);
const FILE = [
  'Name,Email,Stage,Time',
  `Ann,ann.private@example.com,qualified,${D1}T10:00:00Z`,
  `Bob,bob.private@example.com,booked,${D2}T12:00:00Z`,
  `Ann again,ANN.private@example.com ,Qualified,${D1}T06:00:00-04:00`,
  `Cy,cy.private@example.com,hot,${D2}`,
  `Dee,,won,${D2}`,
  'Eve,eve.private@example.com,won,someday',
].join('\n');
const CLEAR_EMAILS = ['ann.private', 'bob.private', 'cy.private', 'eve.private'];

eachDatabase((engine) => {
  describe(`CRM lead outcomes on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let viewer: TestUser;
    let outsider: TestUser;
    let folderId: number;
    let otherFolderId: number;

    const upload = (token: string, id: number, body: string | Buffer | Readable, type = 'text/csv') =>
      api.request(token, {
        method: 'POST',
        url: `/api/folders/${id}/lead_outcomes/upload/`,
        headers: { 'content-type': type },
        payload: body,
      });
    const post = (key: string | null, payload: unknown) =>
      api.request(null, {
        method: 'POST',
        url: '/api/lead_outcomes/',
        headers: key ? { authorization: `Bearer ${key}` } : {},
        payload: payload as Record<string, unknown>,
      });
    const newKey = async (id: number) => {
      const response = await call(api, admin.token, 'POST', `/api/folders/${id}/outcome_key/`);
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { key: string; status: { hint: string } };
    };
    const storedRows = async (id: number) =>
      (
        await api.dbh.sql.query<Record<string, unknown>>(
          'select * from lead_outcomes where folder_id = $1 order by kind, occurred_at',
          [id],
        )
      ).rows;

    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      viewer = await api.userWith(['read_rules']);
      outsider = await api.userWith(['view_logs', 'add_edit_campaigns']);
      const account = await insertAccount(api, { timezoneName: 'America/New_York' });
      folderId = (await createFolder(api, admin.token, account, { name: 'Harbor Seminars' })).id;
      otherFolderId = (await createFolder(api, admin.token, account, { name: 'Other Folder' })).id;
    });
    afterAll(() => api.close());

    it('adds the good rows of an upload, names each bad row, and keeps only hash, stage and time', async () => {
      const response = await upload(admin.token, folderId, FILE);
      expect(response.statusCode, response.body).toBe(200);
      for (const email of CLEAR_EMAILS) expect(response.body).not.toContain(email);
      expect(response.json()).toEqual({
        added: 2,
        already_known: 1,
        refused: 3,
        errors: {
          'rows.5.stage': [MESSAGES.stage],
          'rows.6.email': [MESSAGES.noLead],
          'rows.7.time': [MESSAGES.time],
        },
      });
      const rows = await storedRows(folderId);
      expect(rows.map((r) => [r.lead_key, r.kind, new Date(r.occurred_at as string).toISOString(), r.source])).toEqual([
        [emailHash('bob.private@example.com'), 'booked', `${D2}T12:00:00.000Z`, 'crm'],
        [emailHash('ann.private@example.com'), 'qualified', `${D1}T10:00:00.000Z`, 'crm'],
      ]);
    });

    it('adds nothing when the same file comes again', async () => {
      const response = await upload(admin.token, folderId, FILE);
      expect(response.json()).toMatchObject({ added: 0, already_known: 3, refused: 3 });
      expect(await storedRows(folderId)).toHaveLength(2);
    });

    it('deletes the folder’s CRM outcomes past the 400 days kept when it next receives some', async () => {
      await api.dbh.sql.query(
        "insert into lead_outcomes (folder_id, lead_key, kind, occurred_at, source, source_ref) values ($1, '99', 'won', now() - interval '401 days', 'crm', 'old'), ($1, '98', 'attended', now() - interval '401 days', 'demio', 'old')",
        [otherFolderId],
      );
      const response = await upload(admin.token, otherFolderId, `lead_id,stage,time\n77,won,${D1}\n`);
      expect(response.json()).toMatchObject({ added: 1 });
      expect((await storedRows(otherFolderId)).map((r) => [r.lead_key, r.source])).toEqual([
        ['98', 'demio'],
        ['77', 'crm'],
      ]);
      await api.dbh.sql.query('delete from lead_outcomes where folder_id = $1', [otherFolderId]);
    });

    it('shows the folder’s leads by stage', async () => {
      const response = await call(api, viewer.token, 'GET', `/api/folders/${folderId}/lead_outcomes/`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        stages: [
          { stage: 'qualified', leads: 1 },
          { stage: 'booked', leads: 1 },
          { stage: 'attended', leads: 0 },
          { stage: 'won', leads: 0 },
        ],
        key: null,
      });
    });

    it('refuses the upload and the key to a viewer and to a member without the folders’ permissions', async () => {
      for (const user of [viewer, outsider]) {
        expect((await upload(user.token, folderId, FILE)).statusCode).toBe(403);
        expect((await call(api, user.token, 'POST', `/api/folders/${folderId}/outcome_key/`)).statusCode).toBe(403);
        expect((await call(api, user.token, 'DELETE', `/api/folders/${folderId}/outcome_key/`)).statusCode).toBe(403);
      }
      expect((await call(api, outsider.token, 'GET', `/api/folders/${folderId}/lead_outcomes/`)).statusCode).toBe(403);
      expect((await upload('', folderId, FILE)).statusCode).toBe(401);
      expect(await storedRows(folderId)).toHaveLength(2);
    });

    it('refuses a 50 MB upload with 413 in words, and stores nothing', async () => {
      const big = Buffer.alloc(50 * 1024 * 1024, 'a@b.com,won,2025-01-02\n');
      const response = await upload(admin.token, otherFolderId, big);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ detail: expect.stringMatching(/larger than 10 MB/) });
      expect(await storedRows(otherFolderId)).toHaveLength(0);
    });

    it('refuses an upload over the limit sent without a length (chunked)', async () => {
      const chunks = Array.from({ length: 12 }, () => Buffer.alloc(1024 * 1024, 'x'));
      const response = await upload(admin.token, otherFolderId, Readable.from(chunks));
      expect(response.statusCode).toBe(413);
      expect(response.json()).toHaveProperty('detail');
      expect(CRM_UPLOAD_MAX_BYTES).toBeLessThan(12 * 1024 * 1024);
    });

    it('refuses a file it cannot read as a whole, in the contract’s shape', async () => {
      const noHeader = await upload(admin.token, otherFolderId, 'ann@example.com,won,2025-01-02\n');
      expect(noHeader.statusCode).toBe(400);
      expect(noHeader.json()).toEqual({ file: [expect.stringMatching(/must name the columns/)] });
      const json = await upload(admin.token, otherFolderId, '{"a":1}', 'application/json');
      expect(json.statusCode).toBe(415);
      expect(json.json()).toEqual({ detail: 'Send the file as text/csv.' });
      expect(await storedRows(otherFolderId)).toHaveLength(0);
    });

    it('makes a key shown once, stored only as a hash, that posts to its own folder only', async () => {
      const { key, status } = await newKey(folderId);
      expect(key).toMatch(/^aro_[A-Za-z0-9_-]{43}$/);
      expect(status.hint).toBe(key.slice(-4));
      const stored = await api.dbh.sql.query<{ key_hash: string }>('select key_hash from outcome_keys');
      expect(JSON.stringify(stored.rows)).not.toContain(key.slice(4));
      const summary = await call(api, viewer.token, 'GET', `/api/folders/${folderId}/lead_outcomes/`);
      expect(JSON.stringify(summary.json())).not.toContain(key);

      const response = await post(key, {
        outcomes: [
          { email: 'fay.private@example.com', stage: 'won', time: `${D2}T09:00:00Z` },
          { lead_id: '1234567890123456', stage: 'attended', time: D2 },
          { email: 'fay.private@example.com', stage: 'lost', time: D2 },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        added: 2,
        already_known: 0,
        refused: 1,
        errors: { 'outcomes.2.stage': [MESSAGES.stage] },
      });
      expect(await storedRows(folderId)).toHaveLength(4);
      expect(await storedRows(otherFolderId)).toHaveLength(0);

      const one = await post(key, { lead_id: '1234567890123456', stage: 'attended', time: D2 });
      expect(one.json()).toEqual({ added: 0, already_known: 1, refused: 0, errors: {} });
    });

    it('refuses a post without a key, with a wrong key, and with a rotated or revoked one', async () => {
      const outcome = { lead_id: '42', stage: 'won', time: D1 };
      expect((await post(null, outcome)).statusCode).toBe(401);
      expect((await post('aro_not-a-key', outcome)).statusCode).toBe(401);
      expect((await post(admin.token, outcome)).statusCode).toBe(401);

      const first = await newKey(otherFolderId);
      const second = await newKey(otherFolderId);
      const rotatedAway = await post(first.key, outcome);
      expect(rotatedAway.statusCode).toBe(401);
      expect(rotatedAway.json()).toEqual({ detail: expect.stringMatching(/not valid/) });
      expect((await post(second.key, outcome)).json()).toMatchObject({ added: 1 });

      const revoked = await call(api, admin.token, 'DELETE', `/api/folders/${otherFolderId}/outcome_key/`);
      expect(revoked.statusCode).toBe(204);
      expect((await post(second.key, { ...outcome, lead_id: '43' })).statusCode).toBe(401);
      expect(await storedRows(otherFolderId)).toHaveLength(1);
      expect((await call(api, admin.token, 'DELETE', `/api/folders/${otherFolderId}/outcome_key/`)).statusCode).toBe(
        404,
      );
    });

    it('writes an audit entry for each key made, rotated or revoked, and for each upload', async () => {
      const { rows } = await api.dbh.sql.query<{ action: string; changes_text: string; folder_name: string }>(
        "select action, changes_text, folder_name from audit_log where action like 'Lead outcome%' order by id",
      );
      expect(rows.map((r) => [r.action, r.folder_name])).toEqual([
        ['Lead outcomes uploaded', 'Harbor Seminars'],
        ['Lead outcomes uploaded', 'Harbor Seminars'],
        ['Lead outcomes uploaded', 'Other Folder'],
        ['Lead outcome key created', 'Harbor Seminars'],
        ['Lead outcome key created', 'Other Folder'],
        ['Lead outcome key rotated', 'Other Folder'],
        ['Lead outcome key revoked', 'Other Folder'],
      ]);
      expect(rows[0]!.changes_text).toBe('added: 2; already known: 1; refused: 3');
    });

    it('keeps no e-mail in clear in any row it stored', async () => {
      const tables = ['lead_outcomes', 'outcome_keys', 'audit_log'];
      for (const table of tables) {
        const { rows } = await api.dbh.sql.query(`select * from ${table}`);
        const text = JSON.stringify(rows);
        for (const email of [...CLEAR_EMAILS, 'fay.private']) expect(text, table).not.toContain(email);
      }
    });

    it('answers 404 for a folder that does not exist', async () => {
      expect((await upload(admin.token, 999_999, FILE)).statusCode).toBe(404);
      expect((await call(api, admin.token, 'POST', '/api/folders/999999/outcome_key/')).statusCode).toBe(404);
    });
  });
});

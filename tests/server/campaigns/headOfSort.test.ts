/**
 * A name search matching many campaigns looks for its page among the first campaigns of the sort
 * before reading every match (server/campaigns/store.ts): the page must be the one a plain
 * filter-then-sort gives, whether the head holds it (matches spread along the sort) or not (matches
 * all at the sort's far end), for texts the trigram index serves and one too short for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { campaigns, metaAdAccounts } from '../../../server/db/schema/index';
import { listCampaigns } from '../../../server/campaigns/store';
import type { CampaignFilters } from '../../../server/campaigns/schemas';
import type { Database, DbHandle } from '../../../server/db/client';
import { eachDatabase, freshDatabase } from '../../support/db';

const CAMPAIGNS = 3_000;
const ACCOUNT = 'act_3003';

/**
 * Every third campaign is an EDM one, a sixth are SS ones (a text too short for the trigram index); the last thousand are Zulu ones, all
 * later than the others (at the far end of an ascending date sort: the head cannot hold their page)
 * but for the first five, as early as any (so the head holds a few of them, not a page).
 */
function campaignAt(i: number) {
  const late = i >= CAMPAIGNS - 1_000;
  const kind = late || i < 5 ? 'Zulu' : i % 3 === 0 ? 'EDM' : i % 4 === 0 ? 'SS' : 'TIR';
  return {
    campaignId: BigInt(500_000 + i),
    adAccountId: ACCOUNT,
    campaignName: `${kind} - EP-W - campaign ${i}`,
    // Spread in time, except the Zulu ones, which are the latest.
    eventDate: late
      ? `2027-01-${String(1 + (i % 28)).padStart(2, '0')}`
      : `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    spend: String((i * 37) % 1000),
    cpl: i % 7 === 0 ? null : String((i * 13) % 200),
    isWebinar: i % 2 === 0,
  };
}

/** Records the statements run, to see which way a page was found. */
function recording(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const dialect = new PgDialect();
  const execute = db.execute.bind(db);
  const recorded = Object.create(db) as Database;
  recorded.execute = ((query: Parameters<Database['execute']>[0]) => {
    statements.push(dialect.sqlToQuery(query as SQL).sql);
    return execute(query);
  }) as Database['execute'];
  return { db: recorded, statements };
}

eachDatabase((engine) => {
  describe(`a name search's page found at the head of the sort on ${engine}`, () => {
    let dbh: DbHandle;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      await dbh.db
        .insert(metaAdAccounts)
        .values({ adAccountId: ACCOUNT, accountName: 'Head Wealth', timezoneName: 'UTC' });
      const rows = Array.from({ length: CAMPAIGNS }, (_, i) => campaignAt(i));
      for (let at = 0; at < rows.length; at += 500) await dbh.db.insert(campaigns).values(rows.slice(at, at + 500));
      await dbh.sql.query('analyze campaigns');
    });
    afterAll(() => dbh.close());

    /** The page by a plain filter and sort, with no strategy at all. */
    async function plainPage(text: string, column: string, descending: boolean, limit: number, offset: number) {
      const direction = descending ? 'desc nulls last' : 'asc';
      const { rows } = await dbh.sql.query<{ campaign_id: string }>(
        `select campaign_id::text from campaigns where campaign_name ilike $1
          order by ${column} ${direction}, campaign_id ${descending ? 'desc' : 'asc'} limit $2 offset $3`,
        [`%${text}%`, limit, offset],
      );
      return rows.map((r) => r.campaign_id);
    }

    const cases: { text: string; ordering: string; column: string; limit: number; offset: number }[] = [];
    for (const text of ['EDM', 'SS', 'Zulu'])
      for (const [ordering, column] of [
        ['-event_date', 'event_date'],
        ['event_date', 'event_date'],
        ['spend', 'spend'],
        ['-cpl', 'cpl'],
        ['-campaign_id', 'campaign_id'],
      ] as const)
        for (const [limit, offset] of [
          [10, 0],
          [25, 50],
          [100, 200],
        ] as const)
          cases.push({ text, ordering, column, limit, offset });

    it('gives the plain page for every text, sort and page, reading the head first where the matches are many', async () => {
      const { db, statements } = recording(dbh.db);
      for (const { text, ordering, column, limit, offset } of cases) {
        const filters = { campaign_name: text, ordering } as CampaignFilters;
        const page = await listCampaigns(db, { limit, offset }, filters);
        const expected = await plainPage(text, column, ordering.startsWith('-'), limit, offset);
        expect(
          page.results.map((c) => c.campaign_id),
          `${text} ${ordering} ${limit}@${offset}`,
        ).toEqual(expected);
      }
      const headReads = statements.filter((s) => /from \(\s*select \* from "campaigns" order by/.test(s));
      expect(headReads.length).toBeGreaterThan(0);
    });
  });
});

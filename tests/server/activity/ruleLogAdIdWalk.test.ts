/**
 * The Activity's Ad id sort with a search that matches more entries than are read and sorted
 * (TEXT_READ_UP_TO): walked on the index that carries each entry's search text (migration 0029,
 * server/activity/ruleLogStore.ts). Against plain SQL: the same entries in the same order, at every depth,
 * both directions, with the time as second key, and where the first entries in ad-id order (the
 * campaigns' turn-offs) hold none of the text; a narrow search, read and sorted, alongside.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TEXT_READ_UP_TO } from '../../../server/http/readOrWalk';
import type { TestApi, TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { activityFixture, expectActivityPages, plainOrderBy } from '../run/support';

const ORDERINGS = ['ad_id', '-ad_id', 'ad_id,created_at', 'ad_id,-created_at', '-ad_id,-created_at'];
const SEARCHES = ['image', 'zebra'];
const PAGES: [number, number][] = [
  [10, 0],
  [100, 4900],
  [20, TEXT_READ_UP_TO],
];
const CAMPAIGN_TURN_OFFS = 2_000;
const AD_TURN_OFFS = TEXT_READ_UP_TO + 10_000;

eachDatabase((engine) => {
  describe(`the Activity's Ad id sort walking a broad search on ${engine}`, () => {
    let api: TestApi;
    let viewer: TestUser;

    beforeAll(async () => {
      const fixture = await activityFixture(engine);
      ({ api, viewer } = fixture);
      const { rule, folder } = fixture;
      // Campaign turn-offs first in ad-id order, holding no image; then ads, nearly all images
      // (a zebra now and then), two entries an ad with times out of id order; a few unfinished.
      await api.dbh.sql.query(
        `insert into rule_activity (rule_id, folder_id, action, ad_id, reason, created_at, state)
         select $1, $2, kind, ad, reason, timestamptz '2025-01-01' + ((n * 37) % 900) * interval '1 minute', state
         from (
           select n, 'turn_off_campaign' as kind, (100000 + n)::text as ad,
             json_build_object('Campaign', 'Spring webinar ' || n) as reason, 'done' as state
           from generate_series(1, ${CAMPAIGN_TURN_OFFS}) as n
           union all
           select n, 'turn_off_ad', (200000 + n / 2)::text,
             json_build_object('Ad', case when n % 500 = 0 then 'Zebra video' else 'Single image' end), 'done'
           from generate_series(1, ${AD_TURN_OFFS}) as n
           union all
           select n, 'turn_off_ad', (200000 + n)::text, json_build_object('Ad', 'Single image'), 'pending'
           from generate_series(1, 5) as n) as made`,
        [rule.id, folder.id],
      );
      await api.dbh.sql.query('analyze rule_activity');
    }, 120_000);
    afterAll(() => api.close());

    async function reference(search: string, ordering: string, limit: number, offset: number) {
      const { rows } = await api.dbh.sql.query<{ id: number }>(
        `select id from rule_activity where state = 'done' and search_text ilike '%' || $1 || '%'
         order by ${plainOrderBy(ordering)} limit ${limit} offset ${offset}`,
        [search],
      );
      return rows.map((row) => Number(row.id));
    }

    it('gives every page as plain SQL does', async () => {
      await expectActivityPages(
        api,
        viewer.token,
        { searches: SEARCHES, orderings: ORDERINGS, pages: PAGES },
        reference,
      );
    });
  });
});

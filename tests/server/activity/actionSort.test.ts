/**
 * The Activity's Action sort, walked action by action (server/activity/actionSort.ts), against
 * plain SQL: the same entries in the same order, searched or not, at every depth, whether an
 * action's matches are walked or read (more entries than the sample, none of its first matching).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ACTION_SAMPLE } from '../../../server/activity/actionSort';
import type { TestApi, TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { activityFixture, expectActivityPages, plainOrderBy } from '../run/support';

const ORDERINGS = [
  'action',
  '-action',
  'action,created_at',
  'action,-created_at',
  '-action,created_at',
  '-action,-created_at',
];
const SEARCHES = ['', 'zebra', 'turn_off', 'image', 'alert', 'quokka', 'nothing-here'];
const PAGES: [number, number][] = [
  [7, 0],
  [7, ACTION_SAMPLE + 190],
  [50, ACTION_SAMPLE + 150],
  [20, 1000],
  [100, 1300],
];

eachDatabase((engine) => {
  describe(`the Activity's Action sort on ${engine}`, () => {
    let api: TestApi;
    let viewer: TestUser;

    beforeAll(async () => {
      const fixture = await activityFixture(engine);
      ({ api, viewer } = fixture);
      const { rule, folder } = fixture;
      // Alerts (more than the sample, none holding zebra or image), errors (a few holding zebra),
      // turn-offs of ads (every third an image of a zebra), turn-offs of campaigns (zebra only in the
      // last ones), some not finished; times out of id order, with ties.
      await api.dbh.sql.query(
        `insert into rule_activity (rule_id, folder_id, action, ad_id, reason, created_at, state)
         select $1, $2, kind, (5000 + n)::text, reason, timestamptz '2025-01-01' + ((n * 37) % 400) * interval '1 minute', state
         from (
           select n, 'alert_sent' as kind, json_build_object('Alert', 'CPL high ' || n) as reason, 'done' as state
           from generate_series(1, ${ACTION_SAMPLE + 200}) as n
           union all
           select 2000 + n, 'error', json_build_object('Error', case when n % 4 = 0 then 'zebra missing' else 'timeout' end), 'done'
           from generate_series(1, 40) as n
           union all
           select 3000 + n, 'turn_off_ad', json_build_object('Ad', case when n % 3 = 0 then 'Zebra image' else 'Video 15s' end), 'done'
           from generate_series(1, 300) as n
           union all
           select 4000 + n, 'turn_off_campaign', json_build_object('Campaign', case when n > ${ACTION_SAMPLE + 50} then 'Zebra' else 'Lion' end), 'done'
           from generate_series(1, ${ACTION_SAMPLE + 100}) as n
           union all
           select 6000 + n, 'turn_off_ad', json_build_object('Ad', 'Zebra image'), 'pending'
           from generate_series(1, 5) as n) as made`,
        [rule.id, folder.id],
      );
    });
    afterAll(() => api.close());

    /** The page as plain SQL sorts it: the text in the entry's search text, or every entry for the folder's name. */
    async function reference(search: string, ordering: string, limit: number, offset: number) {
      const matching = !search ? 'true' : search === 'quokka' ? 'true' : `search_text ilike '%' || $1 || '%'`;
      const { rows } = await api.dbh.sql.query<{ id: number }>(
        `select id from rule_activity where state = 'done' and ${matching} and ($1::text is not null)
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

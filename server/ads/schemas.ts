/**
 * Route schemas of the ads list: its query (paging, ordering, search and the filters) and its answers
 * (shared/ads.ts, shared with the browser). An id filter's values that are not ids match nothing;
 * a status or reason the list does not know answers 400.
 */
import { z } from 'zod';
import { STATE_REASONS } from '../../shared/ads';
import { idListQuery, orderingQuery, pageQuery, searchQuery } from '../http/schemas';

export const tags = ['ads'];

export { adSchema, adTurnOnAnswer, adTurnOnBody } from '../../shared/ads';

const reasonList = z
  .string()
  .optional()
  .refine(
    (v) =>
      v === undefined ||
      v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .every((p) => (STATE_REASONS as readonly string[]).includes(p)),
    `Choose among: ${STATE_REASONS.join(', ')}.`,
  )
  .describe(`Comma-separated reasons: ${STATE_REASONS.join(', ')}`);

export const adListQuery = pageQuery
  .extend(orderingQuery.shape)
  .extend(searchQuery.shape)
  .extend({
    folder_id: idListQuery('Ads of these folders’ ad accounts (comma-separated folder ids)'),
    campaign_id: idListQuery('Ads of these campaigns (comma-separated campaign ids)'),
    ad_id: idListQuery('These ads (comma-separated ad ids)'),
    status: z
      .enum(['on', 'off'])
      .optional()
      .describe('on: delivering; off: turned off, paused or held (not the ads never read live)'),
    reason: reasonList,
    rule_id: idListQuery('Ads these rules turned off and that are still off (comma-separated rule ids)'),
    run_id: idListQuery('Ads these runs looked at (comma-separated run ids)'),
  });

export type AdListQuery = z.output<typeof adListQuery>;

import { describe, expect, it } from 'vitest';
import type { Ad, Campaign, InsightRow } from '../../../server/adplatform/types';
import { evaluate, type AccountSnapshot } from '../../../server/judgement/evaluate';
import type { EngineRule, RuleItem } from '../../../server/judgement/ruleShape';

const CAMPAIGN: Campaign = { id: 'c1', name: 'EDM EP-W 2025-03-04 6PM', status: 'ACTIVE', effective_status: 'ACTIVE' };
const AD: Ad = {
  id: 'a1',
  name: 'Ad one',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  campaign_id: 'c1',
  adset_id: 's1',
};

function row(metrics: Partial<InsightRow> & { leads?: number; websiteLeads?: number }): InsightRow {
  const { leads, websiteLeads, ...rest } = metrics;
  const actions = [
    ...(leads !== undefined ? [{ action_type: 'lead', value: String(leads) }] : []),
    ...(websiteLeads !== undefined
      ? [{ action_type: 'offsite_conversion.fb_pixel_lead', value: String(websiteLeads) }]
      : []),
  ];
  return {
    campaign_id: 'c1',
    campaign_name: CAMPAIGN.name,
    ad_id: 'a1',
    ad_name: 'Ad one',
    spend: '0',
    impressions: '1000',
    ...(actions.length ? { actions } : {}),
    ...rest,
  };
}

function task(name: string, values: unknown, is_active = true): RuleItem {
  return { name, values, is_active };
}

function rule(tasks: RuleItem[], filters: RuleItem[] = [task('campaign_name_contains', ['EDM'])]): EngineRule {
  return { id: 1, name: 'Rule', rule_filter: filters, rule_task: tasks };
}

function snapshot(insights: InsightRow[], overrides: Partial<AccountSnapshot> = {}): AccountSnapshot {
  return { currency: 'USD', campaigns: [CAMPAIGN], ads: [AD], insights, ...overrides };
}

interface Case {
  name: string;
  task: RuleItem;
  row: InsightRow;
  reason: Record<string, string> | null;
}

const AD_CASES: Case[] = [
  // trigger_cpl: leads > 0 and CPL > value
  {
    name: 'CPL above the threshold',
    task: task('trigger_cpl', { cpl: '50' }),
    row: row({ spend: '186.30', leads: 3 }),
    reason: { CPL: '$62.10 > $50.00', Leads: '3', Spend: '$186.30' },
  },
  {
    name: 'CPL equal to the threshold',
    task: task('trigger_cpl', { cpl: '50' }),
    row: row({ spend: '150.00', leads: 3 }),
    reason: null,
  },
  {
    name: 'CPL below the threshold',
    task: task('trigger_cpl', { cpl: '50' }),
    row: row({ spend: '149.99', leads: 3 }),
    reason: null,
  },
  {
    name: 'CPL with zero leads (no CPL exists)',
    task: task('trigger_cpl', { cpl: '50' }),
    row: row({ spend: '500', leads: 0 }),
    reason: null,
  },
  {
    name: 'CPL with no actions at all',
    task: task('trigger_cpl', { cpl: '50' }),
    row: row({ spend: '500' }),
    reason: null,
  },
  {
    name: 'CPL from instant-form leads when no "lead" total is sent',
    task: task('trigger_cpl', { cpl: '50' }),
    row: row({ spend: '120', actions: [{ action_type: 'onsite_conversion.lead_grouped', value: '2' }] }),
    reason: { CPL: '$60.00 > $50.00', Leads: '2', Spend: '$120.00' },
  },
  {
    name: 'CPL threshold given as a string in an array',
    task: task('trigger_cpl', ['50.5']),
    row: row({ spend: '101.02', leads: 2 }),
    reason: { CPL: '$50.51 > $50.50', Leads: '2', Spend: '$101.02' },
  },
  {
    name: 'CPL within float noise of the threshold',
    task: task('trigger_cpl', { cpl: '50.1' }),
    row: row({ spend: '150.30', leads: 3 }),
    reason: null,
  },
  // website_cpl: website leads > 0 and website CPL > value
  {
    name: 'website CPL above',
    task: task('website_cpl', { cpl: '40' }),
    row: row({ spend: '90', leads: 9, websiteLeads: 2 }),
    reason: { 'Website CPL': '$45.00 > $40.00', 'Website leads': '2', Spend: '$90.00' },
  },
  {
    name: 'website CPL with zero website leads',
    task: task('website_cpl', { cpl: '40' }),
    row: row({ spend: '900', leads: 9, websiteLeads: 0 }),
    reason: null,
  },
  {
    name: 'website CPL equal',
    task: task('website_cpl', { cpl: '45' }),
    row: row({ spend: '90', websiteLeads: 2 }),
    reason: null,
  },
  // spend_cpl_no_leads: spend > value and leads = 0
  {
    name: 'spend above with no leads',
    task: task('spend_cpl_no_leads', { spend: '50' }),
    row: row({ spend: '50.01' }),
    reason: { Spend: '$50.01 > $50.00', Leads: '0' },
  },
  {
    name: 'spend equal with no leads',
    task: task('spend_cpl_no_leads', { spend: '50' }),
    row: row({ spend: '50.00' }),
    reason: null,
  },
  {
    name: 'spend above with one lead',
    task: task('spend_cpl_no_leads', { spend: '50' }),
    row: row({ spend: '80', leads: 1 }),
    reason: null,
  },
  {
    name: 'spend above with a website lead only',
    task: task('spend_cpl_no_leads', { spend: '50' }),
    row: row({ spend: '80', actions: [{ action_type: 'offsite_conversion.fb_pixel_lead', value: '1' }] }),
    reason: null,
  },
  // spend_no_links_clicks: spend > value and link clicks = 0
  {
    name: 'spend above with zero link clicks',
    task: task('spend_no_links_clicks', { spend: '30' }),
    row: row({ spend: '31', inline_link_clicks: '0', leads: 2 }),
    reason: { Spend: '$31.00 > $30.00', 'Link clicks': '0' },
  },
  {
    name: 'spend above with link clicks left out (Graph omits zero)',
    task: task('spend_no_links_clicks', { spend: '30' }),
    row: row({ spend: '31' }),
    reason: { Spend: '$31.00 > $30.00', 'Link clicks': '0' },
  },
  {
    name: 'spend above with one link click',
    task: task('spend_no_links_clicks', { spend: '30' }),
    row: row({ spend: '31', inline_link_clicks: '1' }),
    reason: null,
  },
  {
    name: 'spend equal with zero link clicks',
    task: task('spend_no_links_clicks', { spend: '30' }),
    row: row({ spend: '30', inline_link_clicks: '0' }),
    reason: null,
  },
  // spend_ctr_no_leads: spend > value, CTR < ctr %, leads = 0
  {
    name: 'low CTR with spend and no leads',
    task: task('spend_ctr_no_leads', { spend: '20', ctr: '1' }),
    row: row({ spend: '25', ctr: '0.45', clicks: '9', impressions: '2000' }),
    reason: { Spend: '$25.00 > $20.00', CTR: '0.45% < 1.00%', Leads: '0' },
  },
  {
    name: 'CTR equal to the threshold',
    task: task('spend_ctr_no_leads', { spend: '20', ctr: '1' }),
    row: row({ spend: '25', ctr: '1.000' }),
    reason: null,
  },
  {
    name: 'low CTR but a lead',
    task: task('spend_ctr_no_leads', { spend: '20', ctr: '1' }),
    row: row({ spend: '25', ctr: '0.4', leads: 1 }),
    reason: null,
  },
  {
    name: 'CTR computed when Graph left it out',
    task: task('spend_ctr_no_leads', { spend: '20', ctr: '1' }),
    row: row({ spend: '25', clicks: '0', impressions: '1000' }),
    reason: { Spend: '$25.00 > $20.00', CTR: '0.00% < 1.00%', Leads: '0' },
  },
  {
    name: 'CTR unknown (no impressions reported)',
    task: task('spend_ctr_no_leads', { spend: '20', ctr: '1' }),
    row: row({ spend: '25' }),
    reason: null,
  },
  {
    name: 'CTR values in catalogue order',
    task: task('spend_ctr_no_leads', [20, 1]),
    row: row({ spend: '25', ctr: '0.5' }),
    reason: { Spend: '$25.00 > $20.00', CTR: '0.50% < 1.00%', Leads: '0' },
  },
  // spend_cpc_no_leads: spend > value, CPC > cpc, leads = 0
  {
    name: 'high CPC with spend and no leads',
    task: task('spend_cpc_no_leads', { spend: '20', cpc: '2' }),
    row: row({ spend: '32', cpc: '3.2', clicks: '10' }),
    reason: { Spend: '$32.00 > $20.00', CPC: '$3.20 > $2.00', Leads: '0' },
  },
  {
    name: 'CPC equal to the threshold',
    task: task('spend_cpc_no_leads', { spend: '20', cpc: '2' }),
    row: row({ spend: '32', cpc: '2.00' }),
    reason: null,
  },
  {
    name: 'CPC computed from clicks',
    task: task('spend_cpc_no_leads', { spend: '20', cpc: '2' }),
    row: row({ spend: '30', clicks: '10' }),
    reason: { Spend: '$30.00 > $20.00', CPC: '$3.00 > $2.00', Leads: '0' },
  },
  {
    name: 'zero clicks: no CPC exists',
    task: task('spend_cpc_no_leads', { spend: '20', cpc: '2' }),
    row: row({ spend: '30', clicks: '0' }),
    reason: null,
  },
  {
    name: 'high CPC but a lead',
    task: task('spend_cpc_no_leads', { spend: '20', cpc: '2' }),
    row: row({ spend: '32', cpc: '3.2', leads: 1 }),
    reason: null,
  },
  // missing metrics
  {
    name: 'spend missing',
    task: task('spend_cpl_no_leads', { spend: '1' }),
    row: { campaign_id: 'c1', campaign_name: CAMPAIGN.name, ad_id: 'a1' } as InsightRow,
    reason: null,
  },
  {
    name: 'spend not a number',
    task: task('spend_cpl_no_leads', { spend: '1' }),
    row: row({ spend: 'n/a' }),
    reason: null,
  },
  {
    name: 'impressions missing (no data, not zero)',
    task: task('spend_cpl_no_leads', { spend: '1' }),
    row: { campaign_id: 'c1', campaign_name: CAMPAIGN.name, ad_id: 'a1', spend: '500' } as InsightRow,
    reason: null,
  },
  {
    name: 'no actions list: zero leads, as Graph means it',
    task: task('spend_cpl_no_leads', { spend: '100' }),
    row: row({ spend: '500' }),
    reason: { Spend: '$500.00 > $100.00', Leads: '0' },
  },
  {
    name: 'spend not a number',
    task: task('spend_cpl_no_leads', { spend: '1' }),
    row: row({ spend: 'n/a' }),
    reason: null,
  },
  // inactive tasks
  {
    name: 'an inactive task never acts',
    task: task('spend_cpl_no_leads', { spend: '1' }, false),
    row: row({ spend: '500' }),
    reason: null,
  },
];

describe('evaluate: ad tasks', () => {
  it.each(AD_CASES)('$name', ({ task: t, row: r, reason }) => {
    const { actions, problems } = evaluate(rule([t]), snapshot([r]));
    expect(problems).toEqual([]);
    if (reason === null) {
      expect(actions).toEqual([]);
    } else {
      expect(actions).toEqual([
        {
          action: 'turn_off_ad',
          objectId: 'a1',
          campaignId: 'c1',
          task: t.name,
          reason: { ...reason, Campaign: CAMPAIGN.name, Ad: 'Ad one' },
        },
      ]);
    }
  });
});

describe('evaluate: statuses', () => {
  const spendy = [row({ spend: '500' })];
  const rules = rule([task('spend_cpl_no_leads', { spend: '50' })]);

  it.each([
    ['paused by a user', { status: 'PAUSED', effective_status: 'PAUSED' }],
    ['paused through its campaign', { status: 'ACTIVE', effective_status: 'CAMPAIGN_PAUSED' }],
    ['paused through its ad set', { status: 'ACTIVE', effective_status: 'ADSET_PAUSED' }],
    ['archived', { status: 'ARCHIVED', effective_status: 'ARCHIVED' }],
  ])('leaves an ad that is %s alone', (_label, status) => {
    expect(evaluate(rules, snapshot(spendy, { ads: [{ ...AD, ...status }] })).actions).toEqual([]);
  });

  // Meta's Ad_effective_status: only ACTIVE delivers; review, issues and billing states are the
  // platform's to resolve (server/judgement/deliveryStatus.ts).
  it.each(['PENDING_REVIEW', 'DISAPPROVED', 'WITH_ISSUES', 'IN_PROCESS', 'PENDING_BILLING_INFO', 'PREAPPROVED'])(
    'leaves an ad whose effective status is %s alone, and says so',
    (effective_status) => {
      const ads = [{ ...AD, effective_status }];
      const result = evaluate(rules, snapshot(spendy, { ads }));
      expect(result.actions).toEqual([]);
      expect(result.objects).toEqual([
        expect.objectContaining({ id: 'a1', verdicts: { spend_cpl_no_leads: 'already_off' } }),
      ]);
    },
  );

  it('leaves an ad whose status is unknown alone', () => {
    expect(evaluate(rules, snapshot(spendy, { ads: [] })).actions).toEqual([]);
  });

  it('leaves an exempt ad alone (undone by a user)', () => {
    expect(evaluate(rules, snapshot(spendy), { exempt: new Set(['a1']) }).actions).toEqual([]);
  });
});

describe('evaluate: campaign_leads', () => {
  const ads: Ad[] = [AD, { ...AD, id: 'a2', name: 'Ad two' }];
  const rows = (a: number, b: number) => [row({ spend: '10', leads: a }), row({ ad_id: 'a2', spend: '10', leads: b })];

  it.each([
    ['reaches the seat limit exactly', 6, 4, { Leads: '10 ≥ 10', Campaign: CAMPAIGN.name }],
    ['passes the seat limit', 9, 4, { Leads: '13 ≥ 10', Campaign: CAMPAIGN.name }],
    ['stays under the seat limit', 5, 4, null],
    ['has no leads', 0, 0, null],
  ])('turns the campaign off when it %s', (_label, a, b, reason) => {
    const { actions } = evaluate(rule([task('campaign_leads', { leads: '10' })]), snapshot(rows(a, b), { ads }));
    expect(actions).toEqual(
      reason ? [{ action: 'turn_off_campaign', objectId: 'c1', campaignId: 'c1', task: 'campaign_leads', reason }] : [],
    );
  });

  it('does not turn off a campaign that is already paused', () => {
    const campaigns = [{ ...CAMPAIGN, status: 'PAUSED', effective_status: 'PAUSED' }];
    expect(
      evaluate(rule([task('campaign_leads', { leads: '1' })]), snapshot(rows(5, 5), { ads, campaigns })).actions,
    ).toEqual([]);
  });

  it('turns off the campaign alone, not also its ads, when both would go', () => {
    const tasks = [task('campaign_leads', { leads: '10' }), task('trigger_cpl', { cpl: '1' })];
    const { actions } = evaluate(rule(tasks), snapshot(rows(6, 4), { ads }));
    expect(actions.map((a) => [a.action, a.objectId])).toEqual([['turn_off_campaign', 'c1']]);
  });
});

describe('evaluate: name filters', () => {
  const other: Campaign = { id: 'c2', name: 'DLM RP-S 2025-04-01 10AM', status: 'ACTIVE', effective_status: 'ACTIVE' };
  const testCampaign: Campaign = { id: 'c3', name: 'EDM TEST EP-W', status: 'ACTIVE', effective_status: 'ACTIVE' };
  const ads: Ad[] = [AD, { ...AD, id: 'a2', campaign_id: 'c2' }, { ...AD, id: 'a3', campaign_id: 'c3' }];
  const rows = [
    row({ spend: '100' }),
    row({ ad_id: 'a2', campaign_id: 'c2', campaign_name: other.name, spend: '100' }),
    row({ ad_id: 'a3', campaign_id: 'c3', campaign_name: testCampaign.name, spend: '100' }),
  ];
  const acted = (filters: RuleItem[]) =>
    evaluate(
      rule([task('spend_cpl_no_leads', { spend: '50' })], filters),
      snapshot(rows, { ads, campaigns: [CAMPAIGN, other, testCampaign] }),
    ).actions.map((a) => a.objectId);

  it.each([
    ['contains one item', [task('campaign_name_contains', ['EDM'])], ['a1', 'a3']],
    ['contains any of several items', [task('campaign_name_contains', ['EP-W', 'RP-S'])], ['a1', 'a2', 'a3']],
    ['contains, case-insensitively', [task('campaign_name_contains', ['edm'])], ['a1', 'a3']],
    [
      'contains and does not contain',
      [task('campaign_name_contains', ['EDM']), task('campaign_name_not_contains', ['TEST'])],
      ['a1'],
    ],
    [
      'an inactive not-contains filter is ignored',
      [task('campaign_name_contains', ['EDM']), task('campaign_name_not_contains', ['TEST'], false)],
      ['a1', 'a3'],
    ],
    ['a contains filter with no items matches nothing', [task('campaign_name_contains', [])], []],
    ['no contains filter at all matches nothing', [], []],
    [
      'the contains filter applies even when marked inactive',
      [task('campaign_name_contains', ['RP-S'], false)],
      ['a2'],
    ],
  ])('%s', (_label, filters, expected) => {
    expect(acted(filters)).toEqual(expected);
  });
});

describe('evaluate: several tasks and problems', () => {
  it('gives one action per ad, with the reason of the first matching task', () => {
    const tasks = [task('spend_no_links_clicks', { spend: '10' }), task('spend_cpl_no_leads', { spend: '20' })];
    const { actions } = evaluate(rule(tasks), snapshot([row({ spend: '30' })]));
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ task: 'spend_cpl_no_leads', reason: { Spend: '$30.00 > $20.00', Leads: '0' } });
  });

  it('reports an active task whose threshold is not a number, and skips it', () => {
    const { actions, problems } = evaluate(
      rule([task('trigger_cpl', { cpl: '' })]),
      snapshot([row({ spend: '500', leads: 1 })]),
    );
    expect(actions).toEqual([]);
    expect(problems).toEqual(['trigger_cpl: the threshold is not a valid number']);
  });

  it('writes money in the account currency', () => {
    const { actions } = evaluate(
      rule([task('spend_cpl_no_leads', { spend: '50' })]),
      snapshot([row({ spend: '80' })], { currency: 'EUR' }),
    );
    expect(actions[0]!.reason.Spend).toBe('€80.00 > €50.00');
  });
});

describe('evaluate: guard rails', () => {
  const spendy = [row({ spend: '500' })];

  it.each([
    ['spend_cpl_no_leads', { spend: '0' }],
    ['spend_cpl_no_leads', { spend: '-5' }],
    ['trigger_cpl', { cpl: '0' }],
    ['campaign_leads', { leads: '0' }],
    ['campaign_leads', { leads: '2.5' }],
    ['spend_ctr_no_leads', { spend: '10', ctr: '0' }],
    ['spend_ctr_no_leads', { spend: '10', ctr: '150' }],
    ['spend_cpc_no_leads', { spend: '10', cpc: '-1' }],
  ])('a stored %s threshold of %j acts on nothing and is reported', (name, values) => {
    const result = evaluate(rule([task(name, values)]), snapshot(spendy));
    expect(result.actions).toEqual([]);
    expect(result.problems).toEqual([`${name}: the threshold is not a valid number`]);
  });

  it('skips an ad with no insights row as "no data", never as zero spend or zero leads', () => {
    const result = evaluate(rule([task('spend_cpl_no_leads', { spend: '1' })]), snapshot([]));
    expect(result.actions).toEqual([]);
    expect(result.objects).toEqual([
      {
        type: 'ad',
        id: 'a1',
        name: 'Ad one',
        campaignId: 'c1',
        metrics: null,
        verdicts: { spend_cpl_no_leads: 'no_data' },
      },
    ]);
  });

  it("explains every matched object: metrics read and each active task's verdict", () => {
    const second = { ...AD, id: 'a2', name: 'Ad two' };
    const exemptAd = { ...AD, id: 'a3', name: 'Ad three' };
    const insights = [
      row({ spend: '500', leads: 0 }),
      row({ ad_id: 'a2', ad_name: 'Ad two', spend: '20', leads: 0 }),
      row({ ad_id: 'a3', ad_name: 'Ad three', spend: '900', leads: 0 }),
    ];
    const tasks = [task('trigger_cpl', { cpl: '50' }), task('spend_cpl_no_leads', { spend: '100' })];
    const result = evaluate(rule(tasks), snapshot(insights, { ads: [AD, second, exemptAd] }), {
      exempt: new Set(['a3']),
    });
    expect(result.actions.map((a) => a.objectId)).toEqual(['a1']);
    const verdicts = Object.fromEntries(result.objects.map((o) => [o.id, o.verdicts]));
    expect(verdicts).toEqual({
      a1: { trigger_cpl: 'under_threshold', spend_cpl_no_leads: 'acted' },
      a2: { trigger_cpl: 'under_threshold', spend_cpl_no_leads: 'under_threshold' },
      a3: { trigger_cpl: 'exempt', spend_cpl_no_leads: 'exempt' },
    });
    expect(result.objects[0]!.metrics).toMatchObject({ spend: 500, leads: 0, impressions: 1000 });
    expect(result.deliveringAds).toBe(3);
  });

  it('does not look at campaigns the name filters leave out', () => {
    const other = { id: 'c2', name: 'DLM RP-S 2025-03-04', status: 'ACTIVE', effective_status: 'ACTIVE' };
    const otherAd = { ...AD, id: 'a9', campaign_id: 'c2' };
    const result = evaluate(
      rule([task('spend_cpl_no_leads', { spend: '1' })]),
      snapshot([row({ spend: '5' }), row({ ad_id: 'a9', campaign_id: 'c2', campaign_name: other.name, spend: '5' })], {
        campaigns: [CAMPAIGN, other],
        ads: [AD, otherAd],
      }),
    );
    expect(result.objects.map((o) => o.id)).toEqual(['a1']);
    expect(result.deliveringAds).toBe(2);
  });
});

/**
 * Lead retrieval in the simulator: `/{ad}/leads` and `/{form}/leads` list the same people the
 * ad's insights count, created in the hours insights credit them to, page by page, filtered by
 * time_created, and the same from the same seed.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import { formIdOf } from '../../../../server/adplatform/simulator/leads';

const START = '2026-03-02T15:00:00Z';

interface Lead {
  id: string;
  created_time: string;
  ad_id?: string;
  form_id?: string;
  field_data?: { name: string; values: string[] }[];
}
type Row = {
  actions?: { action_type: string; value: string }[];
  hourly_stats_aggregated_by_advertiser_time_zone?: string;
};

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, start: START, speed: 0, accounts: 2, campaignsPerAccount: 6 });
});
afterAll(() => sim.close());

async function get<T>(path: string, params: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const query = new URLSearchParams({ access_token: 't', ...params });
  const response = await fetch(`${sim.url}/v25.0/${path}?${query}`);
  return { status: response.status, body: (await response.json()) as T };
}

async function allLeads(path: string, params: Record<string, string> = {}): Promise<Lead[]> {
  const leads: Lead[] = [];
  let url: string | undefined = `${sim.url}/v25.0/${path}?${new URLSearchParams({ access_token: 't', ...params })}`;
  while (url) {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Lead[]; paging?: { next?: string } };
    leads.push(...body.data);
    url = body.paging?.next;
  }
  return leads;
}

const formLeadCount = (rows: Row[]) =>
  rows.reduce(
    (sum, row) =>
      sum + Number(row.actions?.find((a) => a.action_type === 'onsite_conversion.lead_grouped')?.value ?? 0),
    0,
  );

const adsWithFormLeads = () =>
  [...sim.world.ads.values()].filter((ad) => ad.profile.websiteShare < 1 && ad.profile.leads.kind !== 'none');

describe('GET /{ad_id}/leads', () => {
  it('lists as many leads as the ad’s insights count, now and hours later', async () => {
    for (const advance of [0, 5, 30]) {
      sim.advanceHours(advance);
      for (const ad of adsWithFormLeads().slice(0, 12)) {
        const leads = await allLeads(`${ad.id}/leads`, { limit: '50' });
        const insights = await get<{ data: Row[] }>(`${ad.id}/insights`, { date_preset: 'maximum', fields: 'actions' });
        expect(leads.length, `ad ${ad.id}`).toBe(formLeadCount(insights.body.data));
      }
    }
  });

  it('creates each lead in the hour the hourly insights credit it to', async () => {
    // The busiest ad, on the last day one of its leads was created.
    const counted = await Promise.all(
      adsWithFormLeads().map(async (a) => ({ a, leads: await allLeads(`${a.id}/leads`) })),
    );
    const { a: ad, leads } = counted.sort((x, y) => y.leads.length - x.leads.length)[0]!;
    const zone = sim.world.account(ad.accountId)!.timezone;
    const day = DateTime.fromISO(leads.at(-1)!.created_time, { zone }).toISODate()!;
    const hourly = await get<{ data: Row[] }>(`${ad.id}/insights`, {
      time_range: JSON.stringify({ since: day, until: day }),
      breakdowns: 'hourly_stats_aggregated_by_advertiser_time_zone',
      fields: 'actions',
    });
    const reported = new Map<string, number>();
    for (const row of hourly.body.data) {
      const count = formLeadCount([row]);
      if (count) reported.set(row.hourly_stats_aggregated_by_advertiser_time_zone!.slice(0, 2), count);
    }
    const listed = new Map<string, number>();
    for (const lead of leads) {
      const local = DateTime.fromISO(lead.created_time, { zone });
      if (local.toISODate() !== day) continue;
      const hour = local.toFormat('HH');
      listed.set(hour, (listed.get(hour) ?? 0) + 1);
    }
    expect(reported.size).toBeGreaterThan(0);
    expect(listed).toEqual(reported);
  });

  it('answers each lead with its ad, its form, when it was created and the person’s e-mail', async () => {
    const ad = adsWithFormLeads()[0]!;
    const [lead] = await allLeads(`${ad.id}/leads`, { fields: 'id,created_time,ad_id,form_id,field_data' });
    expect(lead).toMatchObject({ ad_id: ad.id, form_id: formIdOf(ad.adsetId) });
    expect(lead!.created_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
    const email = lead!.field_data!.find((f) => f.name === 'email')!.values[0]!;
    expect(email.trim()).toMatch(/^[^@\s]+@example\.(com|net|org)$/i);
    expect(lead!.field_data!.map((f) => f.name)).toEqual(['email', 'full_name', 'phone_number']);
  });

  it('pages with cursors and keeps every lead exactly once', async () => {
    const ad = adsWithFormLeads().sort((a, b) => b.profile.spendPerHour - a.profile.spendPerHour)[0]!;
    const whole = await allLeads(`${ad.id}/leads`, { limit: '500' });
    expect(whole.length).toBeGreaterThan(3);
    const paged = await allLeads(`${ad.id}/leads`, { limit: '2' });
    expect(paged.map((l) => l.id)).toEqual(whole.map((l) => l.id));
  });

  it('filters on time_created as Graph does', async () => {
    const ad = adsWithFormLeads().sort((a, b) => b.profile.spendPerHour - a.profile.spendPerHour)[0]!;
    const whole = await allLeads(`${ad.id}/leads`);
    const middle = Math.floor(Date.parse(whole[Math.floor(whole.length / 2)]!.created_time) / 1000);
    const filtering = JSON.stringify([{ field: 'time_created', operator: 'GREATER_THAN', value: middle }]);
    const later = await allLeads(`${ad.id}/leads`, { filtering });
    expect(later.map((l) => l.id)).toEqual(
      whole.filter((l) => Date.parse(l.created_time) / 1000 > middle).map((l) => l.id),
    );
    const refused = await get<{ error: { message: string } }>(`${ad.id}/leads`, {
      filtering: JSON.stringify([{ field: 'email', operator: 'EQUAL', value: 'x' }]),
    });
    expect(refused.status).toBe(400);
  });

  it('refuses fields and parameters it does not model, by name', async () => {
    const ad = adsWithFormLeads()[0]!;
    const field = await get<{ error: { message: string } }>(`${ad.id}/leads`, { fields: 'id,vehicle' });
    expect(field.body.error.message).toContain('vehicle');
    const param = await get<{ error: { message: string } }>(`${ad.id}/leads`, { since: '1' });
    expect(param.body.error.message).toContain('Unknown param since');
  });
});

describe('GET /{form_id}/leads', () => {
  it('lists the leads of every ad using the form', async () => {
    const ad = adsWithFormLeads()[0]!;
    const siblings = [...sim.world.ads.values()].filter((a) => a.adsetId === ad.adsetId);
    const byAd = (await Promise.all(siblings.map((a) => allLeads(`${a.id}/leads`)))).flat();
    const byForm = await allLeads(`${formIdOf(ad.adsetId)}/leads`);
    expect(new Set(byForm.map((l) => l.id))).toEqual(new Set(byAd.map((l) => l.id)));
  });

  it('has no form and no leads for an ad whose leads all come from the website', async () => {
    const website = await startSimulator({
      seed: 5,
      start: START,
      speed: 0,
      accounts: 1,
      campaignsPerAccount: 0,
      scenarios: ['website_cpl_high'],
    });
    try {
      const ad = website.scenario('website_cpl_high').adIds[0]!;
      const adset = website.world.ads.get(ad)!.adsetId;
      const leads = await fetch(`${website.url}/v25.0/${ad}/leads?access_token=t`);
      expect(((await leads.json()) as { data: unknown[] }).data).toEqual([]);
      const form = await fetch(`${website.url}/v25.0/${formIdOf(adset)}/leads?access_token=t`);
      expect(form.status).toBe(400);
    } finally {
      await website.close();
    }
  });
});

describe('the people behind the leads', () => {
  it('are the same from the same seed', async () => {
    const again = await startSimulator({
      seed: 5,
      start: START,
      speed: 0,
      accounts: 2,
      campaignsPerAccount: 6,
    });
    try {
      again.clock.set(sim.clock.now());
      const ad = adsWithFormLeads()[0]!;
      const first = await allLeads(`${ad.id}/leads`);
      const response = await fetch(`${again.url}/v25.0/${ad.id}/leads?access_token=t&limit=500`);
      const second = ((await response.json()) as { data: Lead[] }).data;
      expect(second).toEqual(first);
    } finally {
      await again.close();
    }
  });
});

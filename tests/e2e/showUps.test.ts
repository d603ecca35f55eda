/**
 * Show-ups end to end on a fresh `npm start` (the Graph and Demio simulators on one stopped clock,
 * started five days back, and the outcome sync every 6 seconds): the clock moves past a webinar one
 * of the world's campaigns advertises, its folder is given its Demio key in the folder's dialog, the
 * sync reads who came, and the campaigns list shows the campaign's attendees and cost per attendee
 * (N/A for a campaign whose webinar is still to come). A rule made in the editor — cost per attendee
 * above a value — turns off, on Run now, the one ad whose attendees came dearest, and its run record
 * shows that cost beside the raw CPL and how many registrants attended. The expected numbers are the
 * simulators' own (who registered and came per ad, what each ad spent).
 */
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser';
import { adminApi, openProductWithSimulator, simStatus, type AdminApi } from './support/engineScenario';
import { checkBothWidths, DESKTOP, pageOverflow, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

const HOUR = 3_600_000;

/** A campaign as the product's campaigns API lists it (the fields this test reads). */
interface ListedCampaign {
  campaign_id: string;
  campaign_name: string;
  meta_ad_account: { ad_account_id: string; account_name: string; timezone_name: string };
  campaignextension: { is_webinar: boolean | null; event_date: string | null; event_time: string | null };
}

/** One ad's part of a Demio date, as the Demio simulator's admin API tells it. */
interface AdAtDate {
  ad_id: string;
  registrants: number;
  attendees: number;
}

/** What the test knows of each ad of the campaign whose webinar happened. */
interface AdTruth extends AdAtDate {
  spend: number;
  leads: number;
  /** What cost per attendee judges: spend per attendee, or the whole spend when nobody came. */
  cost: number;
}

const eventStart = (c: ListedCampaign) =>
  DateTime.fromISO(`${c.campaignextension.event_date}T${c.campaignextension.event_time}`, {
    zone: c.meta_ad_account.timezone_name,
  }).toMillis();

const money = (value: number) => `$${value.toFixed(2)}`;

describe('show-ups in a real browser: a Demio key, a webinar that happened, an ad turned off on its cost per attendee', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  let simulator: string;
  let demio: string;
  /** The simulators' start: the webinar below lies between it and the present. */
  const simulatorStart = new Date(Math.floor((Date.now() - 5 * 24 * HOUR) / HOUR) * HOUR);
  let happened: ListedCampaign;
  let upcoming: ListedCampaign;
  let folder: { id: number; name: string; ruleId: number };
  let ads: AdTruth[];
  /** The ad (of those with enough registrants to be judged) whose attendees came dearest. */
  let dearest: AdTruth;
  /** The threshold: a dollar above the next dearest ad's cost per attendee, which stays on. */
  let threshold: number;

  beforeAll(async () => {
    const opened = await openProductWithSimulator({
      SIMULATOR_START: simulatorStart.toISOString(),
      // No scenario: broken_tracking would break the last ad account's leads and hold its rules.
      SIMULATOR_SCENARIOS: 'none',
      OUTCOME_SYNC_MINUTES: '0.1',
    });
    ({ close, simulator } = opened);
    // Axe (the screens' checks) is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: DESKTOP,
      bypassCSP: true,
    });
    page = await context.newPage();
    api = await adminApi(opened.product.url);
    const address = /using the Demio simulator at (\S+)\/api\/v1/.exec(opened.product.output());
    if (!address) throw new Error(`npm start named no Demio simulator:\n${opened.product.output()}`);
    demio = address[1]!;

    // A webinar the simulators hold after their start and at least 3 hours (when the sync reads its
    // participants) before now, and another of the same ad account still to come.
    const { results } = await api<{ results: ListedCampaign[] }>('GET', 'campaigns/?limit=100');
    const webinars = results
      .filter((c) => c.campaignextension.is_webinar && c.campaignextension.event_date && c.campaignextension.event_time)
      .sort((a, b) => eventStart(a) - eventStart(b));
    const found = webinars.find((c) => {
      const at = eventStart(c);
      return at > simulatorStart.getTime() && at < Date.now() - 3.5 * HOUR;
    });
    const later = webinars.find(
      (c) =>
        found &&
        c.meta_ad_account.ad_account_id === found.meta_ad_account.ad_account_id &&
        eventStart(c) > Date.now() + 24 * HOUR,
    );
    if (!found || !later)
      throw new Error(`No webinar campaign between ${simulatorStart.toISOString()} and now, or none after it`);
    [happened, upcoming] = [found, later];

    const created = await api<{ id: number; name: string; rules: { id: number }[] }>('POST', 'general_page/', {
      client_type: 'EDM',
      plan: 'solo',
      meta_ad_account_id: happened.meta_ad_account.ad_account_id,
      name: `${happened.meta_ad_account.account_name} webinars`,
      extension: { external_credentials: { demio: null } },
    });
    folder = { id: created.id, name: created.name, ruleId: created.rules[0]!.id };
  });
  afterAll(() => close?.());

  /** The Demio date the campaign advertises, with each of its ads' registrants and attendees. */
  const dateOf = async (campaignId: string) => {
    const accounts = (await (await fetch(`${demio}/__sim/accounts`)).json()) as {
      events: { date_ids: number[] }[];
    }[];
    for (const dateId of accounts.flatMap((a) => a.events.flatMap((e) => e.date_ids))) {
      const date = (await (await fetch(`${demio}/__sim/dates/${dateId}`)).json()) as {
        campaign_ids: string[];
        ads: AdAtDate[];
      };
      if (date.campaign_ids.includes(campaignId)) return date;
    }
    throw new Error(`The Demio simulator has no date of campaign ${campaignId}`);
  };

  /** What the ad spent and the leads it got, as the Graph simulator reports them now. */
  const adLifetime = async (adId: string) => {
    const { lifetime } = (await (await fetch(`${simulator}/__sim/objects/${adId}`)).json()) as {
      lifetime: { spend: string; actions?: { action_type: string; value: string }[] };
    };
    const leads = lifetime.actions?.find((a) => a.action_type === 'lead')?.value ?? '0';
    return { spend: Number(lifetime.spend), leads: Number(leads) };
  };

  /** A region of the page (its title given) cut out at the phone's and the desktop's width. */
  const regionScreenshots = async (title: string, name: string) => {
    const dir = path.join(ROOT, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    for (const [size, width] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await page.setViewportSize(size);
      // From the top of the page, where the editor's sticky toolbar does not cover the region.
      await page.evaluate('window.scrollTo(0, 0)');
      const box = await page.getByRole('region', { name: title }).boundingBox();
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true, clip: box! });
      expect(await pageOverflow(page), `${name} on the ${width}: the page scrolls sideways`).toBe(0);
    }
  };

  it('the simulated clock moves past the webinar', async () => {
    const response = await fetch(`${simulator}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: new Date().toISOString() }),
    });
    expect(response.status).toBe(200);
    // A product running through those days would have synced the campaigns and kept each hour's
    // numbers as it read them; with the clock moved in one step, both are read now.
    await api('POST', 'campaigns/sync/', {});
    await api('POST', 'history/fill/', { folder: folder.id });

    const date = await dateOf(happened.campaign_id);
    ads = await Promise.all(
      date.ads.map(async (ad) => {
        const { spend, leads } = await adLifetime(ad.ad_id);
        return { ...ad, spend, leads, cost: ad.attendees ? spend / ad.attendees : spend };
      }),
    );
    const judged = ads.filter((ad) => ad.registrants >= 5).sort((a, b) => b.cost - a.cost);
    expect(judged.length, 'two ads with 5 registrants or more').toBeGreaterThanOrEqual(2);
    expect(judged[0]!.cost - judged[1]!.cost, 'a gap between the two dearest ads').toBeGreaterThan(10);
    dearest = judged[0]!;
    threshold = Math.floor(judged[1]!.cost) + 1;
  });

  it('the folder is given its Demio key in its dialog', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await page.getByRole('button', { name: `Edit folder ${folder.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Update Folder' });
    // The Demio simulator's key and secret for an ad account (docs/simulator.md).
    const digits = happened.meta_ad_account.ad_account_id.replace(/^act_/, '');
    await dialog.getByLabel('API key').fill(`sim_key_${digits}`);
    await dialog.getByLabel('API secret').fill(`sim_secret_${digits}`);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Folder updated').waitFor();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the campaigns list shows who registered and came, and N/A for the webinar still to come', async () => {
    const filter = JSON.stringify({ campaign_id__in: `${happened.campaign_id},${upcoming.campaign_id}` });
    await page.goto(`/campaigns?filter=${encodeURIComponent(filter)}`);
    const row = (c: ListedCampaign) => page.getByRole('row').filter({ hasText: c.campaign_name });
    const cell = (c: ListedCampaign, column: string) => row(c).locator(`td.column-${column}`);
    const attendees = ads.reduce((sum, ad) => sum + ad.attendees, 0);
    const registrants = ads.reduce((sum, ad) => sum + ad.registrants, 0);
    const spend = ads.reduce((sum, ad) => sum + ad.spend, 0);
    // The sync reads the participants within seconds; the list shows them once reloaded.
    await expect
      .poll(
        async () => {
          await page.reload();
          return cell(happened, 'attendees').textContent();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(String(attendees));
    expect(await cell(happened, 'registrations').textContent()).toBe(String(registrants));
    expect(await cell(happened, 'show_up_rate').textContent()).toBe(`${((attendees / registrants) * 100).toFixed(2)}%`);
    expect(await cell(happened, 'cost_per_attendee').textContent()).toBe(money(spend / attendees));
    for (const column of ['registrations', 'attendees', 'show_up_rate', 'cost_per_attendee'])
      expect(await cell(upcoming, column).textContent(), column).toBe('N/A');

    await page.getByRole('button', { name: 'Hide Filters' }).click();
    const findings = await checkBothWidths(page, 'show-ups-campaigns', (p) => [
      p.getByRole('button', { name: 'Show Filters' }),
    ]);
    expect(findings).toEqual([]);
    // On the phone each campaign is a card with its outcomes labelled.
    const card = page.getByRole('listitem').filter({ hasText: happened.campaign_name });
    await expect(card.innerText()).resolves.toMatch(new RegExp(`Attendees\\s*\\n\\s*${attendees}\\b`));
    await page.screenshot({
      path: path.join(ROOT, 'test-results', 'screenshots', 'show-ups-campaigns-outcomes-phone.png'),
    });
  });

  it('a rule made in the editor turns off ads whose cost per attendee is above the value', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`/edit-rule/${folder.ruleId}`);
    const contains = page.getByLabel('Campaign name contains');
    await contains.click();
    await contains.press('Backspace'); // the new rule's "EDM"
    await contains.fill(happened.campaign_name);
    await contains.press('Enter');
    const wording = 'Turn off the ad if cost per attendee is above a value';
    await page.getByLabel(`Turn on: ${wording}`).check();
    await page.getByLabel(`${wording}: Cost`, { exact: true }).fill(String(threshold));
    await page.getByLabel(`${wording}: Min. settled registrations`, { exact: true }).fill('5');
    await regionScreenshots('What a lead became', 'show-ups-task-cards');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Rule saved').waitFor();
  });

  it('Run now turns off the ad whose attendees came dearest; its run record shows both costs', async () => {
    await page.goto(`/edit-rule/${folder.ruleId}`);
    await page.getByRole('button', { name: /^Run now: / }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Run now' }).click();
    await dialog.getByText(/^Ran "/).waitFor({ timeout: 60_000 });
    expect(await dialog.getByRole('alert').first().textContent()).toBe('1 turned off');
    await dialog.getByRole('button', { name: 'Close' }).click();

    expect(await simStatus(simulator, dearest.ad_id)).toBe('PAUSED');
    for (const ad of ads.filter((a) => a !== dearest))
      expect(await simStatus(simulator, ad.ad_id), ad.ad_id).toBe('ACTIVE');

    await page
      .getByRole('button', { name: /^Show run \d+$/ })
      .first()
      .click();
    const record = page.getByTestId(`run-object-${dearest.ad_id}`);
    await record.waitFor();
    expect(await record.textContent()).toContain(
      `Cost per attendee ${money(dearest.cost)} > ${money(threshold)} · CPL ${money(dearest.spend / dearest.leads)}` +
        ` · Show-up ${dearest.attendees} of ${dearest.registrants} registrants attended`,
    );
    await record.getByText('Turned off', { exact: true }).waitFor();
    await regionScreenshots('Runs', 'show-ups-run-record');
  });
});

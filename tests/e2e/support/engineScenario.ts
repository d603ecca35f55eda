/**
 * The rule engine's browser tests start alike: the product on a fresh `npm start` with the Graph
 * simulator on a known port and its clock stopped, the admin's API, and a folder whose rule catches
 * the simulator's spend-no-leads ad.
 */
import { expect } from 'vitest';
import { openProduct, type ProductInBrowser } from './product';
import { ADMIN, freePort } from './server';

/** The product's API as the admin: JSON both ways; any answer but a 2xx fails the test. */
export type AdminApi = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export interface ProductWithSimulator extends ProductInBrowser {
  /** The simulator's address, for its `/__sim/…` inspection routes. */
  simulator: string;
}

/** `openProduct` with the built-in simulator on a free port, its clock stopped; `env` adds to that. */
export async function openProductWithSimulator(env: Record<string, string> = {}): Promise<ProductWithSimulator> {
  const simulatorPort = await freePort();
  const opened = await openProduct({ SIMULATOR_PORT: String(simulatorPort), SIMULATOR_SPEED: '0', ...env });
  return { ...opened, simulator: `http://127.0.0.1:${simulatorPort}` };
}

export async function adminApi(productUrl: string): Promise<AdminApi> {
  const tokens = (await (
    await fetch(`${productUrl}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
  ).json()) as { access: string };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${productUrl}/api/${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.access}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return (await response.json()) as T;
  };
}

export interface NoLeadsRule {
  folderId: number;
  ruleId: number;
  /** The simulator scenario's ad, which the rule turns off. */
  noLeadsAd: string;
}

/** Which simulator scenario the rule is for, and its "spend with no leads" task. */
export interface NoLeadsScenario {
  scenario: string;
  /** What the rule's campaign filter looks for in the scenario campaign's name. */
  campaign: string;
  spend: string;
}

/**
 * A folder named `folderName` on the account of a simulator scenario (by default spend-no-leads),
 * whose rule catches that scenario's ad: it has spent about $60 with no lead, and the rule turns off
 * SS-W campaigns' ads that spent over $40 without a lead.
 */
export async function createNoLeadsRule(
  api: AdminApi,
  simulator: string,
  folderName: string,
  { scenario: name, campaign, spend }: NoLeadsScenario = { scenario: 'spend_no_leads', campaign: 'SS-W', spend: '40' },
): Promise<NoLeadsRule> {
  const scenarios = (await (await fetch(`${simulator}/__sim/scenarios`)).json()) as Record<
    string,
    { accountId: string; adIds: string[] }
  >;
  const scenario = scenarios[name]!;
  const accounts = await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=400');
  const home = accounts.results.find((a) => a.ad_account_id.endsWith(scenario.accountId))!;
  const folder = await api<{ id: number; rules: { id: number }[] }>('POST', 'general_page/', {
    client_type: 'EDM',
    plan: 'solo',
    meta_ad_account_id: home.ad_account_id,
    name: folderName,
    extension: { external_credentials: { demio: null } },
  });
  const ruleId = folder.rules[0]!.id;
  await api('PATCH', `rule/${ruleId}/`, {
    rule_filter: [{ name: 'campaign_name_contains', values: [campaign], is_active: true }],
    rule_task: [{ name: 'spend_cpl_no_leads', values: { spend }, is_active: true }],
  });
  return { folderId: folder.id, ruleId, noLeadsAd: scenario.adIds[0]! };
}

/** An ad's or campaign's status in the simulator. */
export const simStatus = async (simulator: string, id: string) =>
  ((await (await fetch(`${simulator}/__sim/objects/${id}`)).json()) as { status: string }).status;

/** Every status change the simulator has been asked to make. */
export const simWrites = async (simulator: string) =>
  (await (await fetch(`${simulator}/__sim/writes`)).json()) as unknown[];

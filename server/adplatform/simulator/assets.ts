/**
 * What surrounds the simulated ad objects, as Graph names it: the business that owns each ad
 * account and the card it pays with, the account's Facebook Page, pixel and website, and each ad's
 * creative and tracking specs. Every id is derived from an object's own id behind a prefix no
 * object id starts with (they all start with 120; lead forms with 99), so the world's seeded draws
 * — and with them every object id — stay as they were.
 */
import type { SimAccount, SimAd, World } from './world';

export const businessIdOf = (account: SimAccount) => `77${account.accountId}`;
export const pageIdOf = (accountId: string) => `11${accountId}`;
export const pixelIdOf = (accountId: string) => `66${accountId}`;
export const creativeIdOf = (ad: SimAd) => `98${ad.id}`;
/** An ad set's lead form (leads.ts). */
export const formIdOf = (adsetId: string) => `99${adsetId}`;
export const adsetIdOfForm = (formId: string) => (formId.startsWith('99') ? formId.slice(2) : undefined);

/** `Harbor Wealth Advisors 2` → `harborwealthadvisors2.com`: where the account's website leads sign up. */
export function websiteOf(account: SimAccount): string {
  return `${account.name.toLowerCase().replace(/[^a-z0-9]/g, '')}.com`;
}

export function businessOf(account: SimAccount): { id: string; name: string } {
  return { id: businessIdOf(account), name: account.name };
}

/** The card the business pays with (FundingSourceDetails; type 1 is a credit card). */
export function fundingSourceOf(account: SimAccount): { id: string; display_string: string; type: number } {
  return {
    id: `88${account.accountId}`,
    display_string: `Visa *${account.accountId.slice(-4)}`,
    type: 1,
  };
}

/** Whether the ad takes leads on a Facebook form (else all of them on the website). */
const takesFormLeads = (ad: SimAd) => ad.profile.websiteShare < 1;
const takesWebsiteLeads = (ad: SimAd) => ad.profile.websiteShare > 0;

/** The Page post an ad runs as: `{page id}_{post id}`. */
const storyIdOf = (ad: SimAd) => `${pageIdOf(ad.accountId)}_${ad.id.slice(-9)}`;

/**
 * Graph's default tracking specs of a lead ad: engagement with its Page post, its lead form when
 * it has one, and the pixel when it takes website leads.
 */
export function trackingSpecsOf(ad: SimAd): Record<string, string[]>[] {
  const page = pageIdOf(ad.accountId);
  const post = storyIdOf(ad).split('_')[1]!;
  const specs: Record<string, string[]>[] = [
    { 'action.type': ['link_click'], post: [post], 'post.wall': [page] },
    { 'action.type': ['post_engagement'], page: [page], post: [post] },
  ];
  if (takesFormLeads(ad)) specs.push({ 'action.type': ['leadgen'], leadgen: [formIdOf(ad.adsetId)], page: [page] });
  if (takesWebsiteLeads(ad)) specs.push({ 'action.type': ['offsite_conversion'], fb_pixel: [pixelIdOf(ad.accountId)] });
  return specs;
}

/** What an ad set optimises for: its Page's lead form, or the pixel's Lead event for website leads. */
export function promotedObjectOf(world: World, adsetId: string): Record<string, string> {
  const adset = world.adsets.get(adsetId)!;
  return world.optimizationGoalOf(adsetId) === 'OFFSITE_CONVERSIONS'
    ? { pixel_id: pixelIdOf(adset.accountId), custom_event_type: 'LEAD' }
    : { page_id: pageIdOf(adset.accountId) };
}

type CreativeField = (ad: SimAd, world: World) => unknown;

/**
 * The AdCreative fields the simulator answers (its spec is not among specs/, so any other is
 * refused as not simulated). The creative is named after its ad (`Video - Couple at Table`).
 */
export const CREATIVE_FIELDS: Readonly<Record<string, CreativeField>> = {
  id: (ad) => creativeIdOf(ad),
  name: (ad) => `${ad.name} Creative`,
  title: (ad) => ad.name.split(' - ').at(-1),
  body: (ad, world) => `Reserve your free seat with ${world.account(ad.accountId)!.name}.`,
  object_type: (ad) => (ad.name.startsWith('Video') ? 'VIDEO' : 'SHARE'),
  call_to_action_type: (ad) => (takesFormLeads(ad) ? 'SIGN_UP' : 'LEARN_MORE'),
  thumbnail_url: (ad, world) => `https://${websiteOf(world.account(ad.accountId)!)}/ads/${creativeIdOf(ad)}.jpg`,
  effective_object_story_id: (ad) => storyIdOf(ad),
  object_story_spec: (ad, world) => {
    const link = `https://${websiteOf(world.account(ad.accountId)!)}/workshop`;
    const value = takesFormLeads(ad) ? { lead_gen_form_id: formIdOf(ad.adsetId) } : { link };
    return {
      page_id: pageIdOf(ad.accountId),
      link_data: {
        link,
        name: CREATIVE_FIELDS.title!(ad, world),
        message: CREATIVE_FIELDS.body!(ad, world),
        call_to_action: { type: CREATIVE_FIELDS.call_to_action_type!(ad, world), value },
      },
    };
  },
};

/** Whether an id names an ad's creative (`98` + the ad's id). */
export const isCreativeId = (world: World, id: string) => id.startsWith('98') && world.ads.has(id.slice(2));

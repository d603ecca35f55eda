/**
 * Lead retrieval: `GET /{ad_id}/leads` and `GET /{form_id}/leads` answer the people behind an ad's
 * on-Facebook form leads — the very leads its insights count (reporting.ts, leadMoments): the same
 * number at every moment, each created at the moment it happened, so it lands in the hour insights
 * credit it to. A lead is listed from when insights first count it (its lag, minutes for instant
 * forms). Website (pixel) leads have no form and are never listed.
 *
 * Each ad set whose ads take form leads has one lead form (`GET /{form_id}` reads it); its id is
 * the ad set's id behind `99`, so it never collides with an object id (they all start with 120).
 */
import { errorAnswer, notFound, page, type GraphAnswer, type GraphContext, type Params } from './answers';
import { adsetIdOfForm, formIdOf, pageIdOf } from './assets';
import { parseFields } from './fieldTree';
import { itemFilter } from './filtering';
import { graphDatetime } from './nodes';
import { refuseParams } from './params';
import { simPerson, type SimPerson } from './people';
import { leadMoments } from './reporting';
import type { SimAd, SimAdSet, World } from './world';
import { specFields } from '../graphSpec';

export interface SimLead {
  id: string;
  ad: SimAd;
  formId: string;
  /** The lead's number among its ad's leads (website leads included). */
  k: number;
  createdTime: number;
  person: SimPerson;
}

export { formIdOf } from './assets';

/** Whether any ad of the ad set takes on-Facebook form leads. */
export function hasLeadForm(world: World, adset: SimAdSet): boolean {
  return [...world.ads.values()].some((ad) => ad.adsetId === adset.id && ad.profile.websiteShare < 1);
}

function formOf(world: World, formId: string): SimAdSet | undefined {
  const adsetId = adsetIdOfForm(formId);
  const adset = adsetId === undefined ? undefined : world.adsets.get(adsetId);
  return adset && hasLeadForm(world, adset) ? adset : undefined;
}

/** The person behind an ad's k-th lead (form or website), the same in both simulators. */
export const personOfLead = (world: World, ad: SimAd, k: number): SimPerson =>
  simPerson(world.options.seed ?? 1, `${ad.id}:${k}`, `${ad.id.slice(-4)}${k}`);

/** An ad's form leads that insights count at `now`, oldest first. */
export function formLeadsOf(world: World, ad: SimAd, now: number): SimLead[] {
  if (ad.profile.websiteShare >= 1) return [];
  return leadMoments(world, ad, now)
    .filter((lead) => !lead.website && lead.arrivesAt <= now)
    .map((lead) => ({
      id: `${ad.id}${String(lead.k).padStart(5, '0')}`,
      ad,
      formId: formIdOf(ad.adsetId),
      k: lead.k,
      createdTime: Math.floor(lead.happenedAt / 1000) * 1000,
      person: personOfLead(world, ad, lead.k),
    }));
}

const LEAD_FIELDS: Record<string, (lead: SimLead, world: World) => unknown> = {
  id: (lead) => lead.id,
  created_time: (lead) => graphDatetime(lead.createdTime, 'UTC'),
  ad_id: (lead) => lead.ad.id,
  ad_name: (lead) => lead.ad.name,
  adset_id: (lead) => lead.ad.adsetId,
  adset_name: (lead, world) => world.adsets.get(lead.ad.adsetId)!.name,
  campaign_id: (lead) => lead.ad.campaignId,
  campaign_name: (lead, world) => world.campaigns.get(lead.ad.campaignId)!.name,
  form_id: (lead) => lead.formId,
  is_organic: () => false,
  field_data: ({ person }) => [
    { name: 'email', values: [person.email] },
    { name: 'full_name', values: [`${person.firstName} ${person.lastName}`] },
    { name: 'phone_number', values: [person.phone] },
  ],
};
const DEFAULT_FIELDS = ['id', 'created_time', 'field_data'];
const SIMULATED_PARAMS = ['fields', 'limit', 'after', 'before', 'filtering'];

/**
 * The answer to a lead-retrieval path, or undefined when the path is not one: `/{ad}/leads`, or
 * anything under a lead form's id (only its `/leads` edge is answered).
 */
export function leadsAnswer(
  world: World,
  now: number,
  method: string,
  path: string,
  params: Params,
  graph: GraphContext,
): GraphAnswer | undefined {
  const [head = '', edge] = path.split('/').filter(Boolean);
  const form = formOf(world, head);
  const ad = world.ads.get(head);
  if (!form && !(ad && edge === 'leads')) return undefined;
  if (form && edge === undefined && method === 'GET') return formAnswer(world, now, form, params);
  if (form && (edge !== 'leads' || method !== 'GET'))
    return errorAnswer(400, 100, `(#100) The simulator models only GET of node type LeadgenForm and its /leads`);
  if (method !== 'GET')
    return errorAnswer(400, 100, `(#100) Unsupported ${method.toLowerCase()} request on edge /leads`);
  if (ad?.deleted) return notFound(head);
  const where = `edge /leads of node type ${form ? 'LeadgenForm' : 'Ad'}`;
  const refusal = refuseParams(params, where, SIMULATED_PARAMS);
  if (refusal) return refusal;
  const fields = fieldsOf(params.fields);
  if (!Array.isArray(fields)) return fields;
  const filter = itemFilter<SimLead>(params.filtering, {
    time_created: { kind: 'time', read: (lead) => Math.floor(lead.createdTime / 1000) },
  });
  if (typeof filter !== 'function') return filter;
  const ads = form ? [...world.ads.values()].filter((a) => a.adsetId === form.id && !a.deleted) : [ad!];
  const leads = ads
    .flatMap((a) => formLeadsOf(world, a, now))
    .filter(filter)
    .sort((a, b) => a.createdTime - b.createdTime || a.id.localeCompare(b.id));
  const render = (lead: SimLead) => Object.fromEntries(fields.map((name) => [name, LEAD_FIELDS[name]!(lead, world)]));
  const answer = page(leads, render, params, `${head}/leads`, graph);
  return { ...answer, accountId: (form ?? ad)!.accountId };
}

/** The questions of every simulated form: the answers its leads' field_data hold. */
const FORM_QUESTIONS = [
  { key: 'email', label: 'Email', type: 'EMAIL' },
  { key: 'full_name', label: 'Full name', type: 'FULL_NAME' },
  { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
];

type FormField = (form: SimAdSet, world: World, now: number) => unknown;

const FORM_FIELDS: Record<string, FormField> = {
  id: (form) => formIdOf(form.id),
  name: (form) => `${form.name} - Lead Form`,
  status: () => 'ACTIVE',
  locale: () => 'en_US',
  created_time: (form) => graphDatetime(form.createdTime, 'UTC'),
  page_id: (form) => pageIdOf(form.accountId),
  leads_count: (form, world, now) =>
    [...world.ads.values()]
      .filter((ad) => ad.adsetId === form.id && !ad.deleted)
      .reduce((count, ad) => count + formLeadsOf(world, ad, now).length, 0),
  questions: (form) => FORM_QUESTIONS.map((question, i) => ({ ...question, id: `${formIdOf(form.id)}${i}` })),
};
const DEFAULT_FORM_FIELDS = ['id', 'name'];

/** `GET /{form_id}`: the ad set's lead form, in the fields asked for. */
function formAnswer(world: World, now: number, form: SimAdSet, params: Params): GraphAnswer {
  const refusal = refuseParams(params, 'a read of node type LeadgenForm', ['fields']);
  if (refusal) return refusal;
  const fields = fieldsOf(params.fields, 'LeadgenForm', FORM_FIELDS, DEFAULT_FORM_FIELDS);
  if (!Array.isArray(fields)) return fields;
  const wanted = fields.includes('id') ? fields : ['id', ...fields];
  const body = Object.fromEntries(wanted.map((name) => [name, FORM_FIELDS[name]!(form, world, now)]));
  return { status: 200, body, accountId: form.accountId };
}

/** The fields asked for of a Lead or LeadgenForm, or Graph's refusal naming the first that cannot be answered. */
function fieldsOf(
  raw: string | undefined,
  node: 'Lead' | 'LeadgenForm' = 'Lead',
  answered: Record<string, unknown> = LEAD_FIELDS,
  defaults: string[] = DEFAULT_FIELDS,
): string[] | GraphAnswer {
  if (raw === undefined || raw.trim() === '') return defaults;
  const parsed = parseFields(raw);
  if ('error' in parsed) return errorAnswer(400, 100, `(#100) Syntax error in param fields: ${parsed.error}`);
  const spec = specFields(node);
  for (const field of parsed) {
    if (field.children || Object.keys(field.modifiers).length)
      return errorAnswer(400, 100, `(#100) The simulator does not expand field ${field.name} of node type ${node}`);
    if (answered[field.name]) continue;
    return spec.has(field.name)
      ? errorAnswer(400, 100, `(#100) The simulator does not model field ${field.name} of node type ${node}`)
      : errorAnswer(400, 100, `(#100) Tried accessing nonexisting field (${field.name}) on node type (${node})`);
  }
  return parsed.map((field) => field.name);
}

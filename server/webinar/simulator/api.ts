/**
 * Demio's public API as the simulator answers it (docs/simulator.md, "The Demio
 * simulator"): `GET /ping`, `GET /ping/query`, `GET /events?type=`, `GET /event/{id}?active=`,
 * `GET /event/{id}/date/{date_id}`, `GET /report/{date_id}/participants?status=`. Errors are
 * Demio's `{messages: [...]}`. Registration (`PUT /event/register`) is not modelled.
 */
import { DateTime } from 'luxon';
import { normaliseEmail } from '../emailHash';
import { registrantsOf, type SimRegistrant } from './participants';
import { dateStatus, type DemioAccount, type DemioEvent, type DemioEventDate, type DemioWorld } from './world';

export interface DemioAnswer {
  status: number;
  body: unknown;
}

const messages = (status: number, ...text: string[]): DemioAnswer => ({ status, body: { messages: text } });
const ok = (body: unknown): DemioAnswer => ({ status: 200, body });

const EVENT_TYPES = ['upcoming', 'past', 'automated'];
const STATUSES = ['attended', 'did not attend', 'completed', 'left early', 'banned'];

export interface DemioRequest {
  method: string;
  /** The path under /api/v1, e.g. `events`. */
  path: string;
  query: URLSearchParams;
  account: DemioAccount;
  /** Base of registration links, e.g. http://127.0.0.1:40123 */
  origin: string;
}

export function demioAnswer(world: DemioWorld, now: number, request: DemioRequest): DemioAnswer {
  const { method, path, query, account } = request;
  if (method !== 'GET') return messages(405, `The simulator does not model ${method} /${path}`);
  const parts = path.split('/').filter(Boolean);
  if ((parts[0] === 'ping' && parts.length === 1) || (parts[0] === 'ping' && parts[1] === 'query'))
    return ok({ pong: true });
  if (parts[0] === 'events' && parts.length === 1) return eventsList(world, now, request);
  if (parts[0] === 'event' && parts.length === 2) {
    const event = ownEvent(world, account, parts[1]!);
    if (!event) return messages(404, 'Event not found');
    const active = query.get('active') === 'true' || query.get('active') === '1';
    const dates = event.dates.filter((d) => !active || dateStatus(d, now) !== 'finished');
    const next = event.dates.find((d) => dateStatus(d, now) !== 'finished');
    return ok({
      id: event.id,
      name: event.name,
      description: event.description,
      registrants_stay_registered: false,
      registration_url: registrationUrl(request, event),
      next_date_id: next?.dateId ?? null,
      automated: null,
      dates: dates.map((d) => dateBody(d, now)),
    });
  }
  if (parts[0] === 'event' && parts[2] === 'date' && parts.length === 4) {
    const event = ownEvent(world, account, parts[1]!);
    const date = event?.dates.find((d) => String(d.dateId) === parts[3]);
    return date ? ok(dateBody(date, now)) : messages(404, 'Event Date not found');
  }
  if (parts[0] === 'report' && parts[2] === 'participants' && parts.length === 3) {
    const date = world.date(Number(parts[1]));
    if (!date || world.event(date.eventId)?.adAccountId !== account.adAccountId)
      return messages(404, 'Event Date not found');
    const status = query.get('status');
    if (status !== null && !STATUSES.includes(status))
      return messages(400, `status must be one of: ${STATUSES.join(', ')}`);
    return ok({ participants: participants(world, date, now, status) });
  }
  return messages(404, `The simulator does not model /${path}`);
}

function ownEvent(world: DemioWorld, account: DemioAccount, id: string): DemioEvent | undefined {
  const event = world.event(Number(id));
  return event?.adAccountId === account.adAccountId ? event : undefined;
}

/**
 * One entry per event, with its next session (scheduled or running) or, for `past`, its last
 * finished one; ordered by that session's time.
 */
function eventsList(world: DemioWorld, now: number, request: DemioRequest): DemioAnswer {
  const type = request.query.get('type');
  if (type !== null && !EVENT_TYPES.includes(type))
    return messages(400, `type must be one of: ${EVENT_TYPES.join(', ')}`);
  if (type === 'automated') return ok([]);
  const rows: { event: DemioEvent; date: DemioEventDate }[] = [];
  for (const event of world.eventsOf(request.account)) {
    const upcoming = event.dates.find((d) => dateStatus(d, now) !== 'finished');
    const past = event.dates.filter((d) => dateStatus(d, now) === 'finished').at(-1);
    const date = type === 'past' ? past : type === 'upcoming' ? upcoming : (upcoming ?? past);
    if (date) rows.push({ event, date });
  }
  rows.sort((a, b) => a.date.startsAt - b.date.startsAt);
  return ok(
    rows.map(({ event, date }) => ({
      id: event.id,
      name: event.name,
      description: event.description,
      date_id: date.dateId,
      status: dateStatus(date, now),
      timestamp: Math.floor(date.startsAt / 1000),
      zone: date.zone,
      registration_url: registrationUrl(request, event),
      automated: null,
    })),
  );
}

const registrationUrl = (request: DemioRequest, event: DemioEvent) => `${request.origin}/ref/${event.registrationCode}`;

function dateBody(date: DemioEventDate, now: number) {
  const local = DateTime.fromMillis(date.startsAt, { zone: date.zone });
  return {
    date_id: date.dateId,
    status: dateStatus(date, now),
    timestamp: Math.floor(date.startsAt / 1000),
    datetime: `${local.toFormat('MMMM d', { locale: 'en-US' })}${ordinal(local.day)}, ${local.year} at ${local.toFormat('h:mma ZZZZ', { locale: 'en-US' })}`,
    zone: date.zone,
  };
}

const ordinal = (day: number) =>
  day % 100 >= 11 && day % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');

/** Participants once the session has finished; before, the report is empty. */
function participants(world: DemioWorld, date: DemioEventDate, now: number, status: string | null) {
  if (dateStatus(date, now) !== 'finished') return [];
  return registrantsOf(world, date, now)
    .filter((r) => status === null || (status === 'attended' ? r.attended : r.status === status))
    .map((r) => participantBody(world, r));
}

function participantBody(world: DemioWorld, registrant: SimRegistrant) {
  const { person } = registrant;
  const fields = [
    { id: 'last_name', name: 'Last Name', value: person.lastName },
    { id: 'phone_number', name: 'Phone Number', value: person.phone },
  ];
  if (registrant.website && registrant.adId) {
    const ad = world.graph.ads.get(registrant.adId)!;
    fields.push(
      { id: 'utm_source', name: 'UTM Source', value: 'facebook' },
      { id: 'utm_medium', name: 'UTM Medium', value: 'paid_social' },
      { id: 'utm_campaign', name: 'UTM Campaign', value: ad.campaignId },
      { id: 'utm_content', name: 'UTM Content', value: ad.id },
    );
  }
  return {
    email: normaliseEmail(person.email),
    name: person.firstName,
    custom_fields: fields,
    attended: registrant.attended,
    status: registrant.status,
  };
}

/**
 * The product's Demio client: typed reads of events, event dates and participants for one Demio
 * account (a folder's key and secret), over Demio's public API at DEMIO_API_URL or the simulator.
 *
 * - Calls are paced by the account's pacer (180 a minute, 5,000 a day) before they are made.
 * - A refused key is a DemioAuthError ("Demio refused the key"), never retried.
 * - 429, 5xx, timeouts and network errors are retried with exponential back-off and jitter; after a
 *   429 the client waits out Demio's minute, which is all Demio says about its limit.
 * - Participants come back with their e-mail already hashed (emailHash.ts) and their UTM fields;
 *   names and other answers are dropped, so no clear e-mail leaves this module.
 */
import { emailHash } from './emailHash';
import {
  DemioError,
  DemioNetworkError,
  DemioProtocolError,
  DemioRateLimitError,
  DemioTimeoutError,
  demioError,
} from './errors';
import { DemioPacer } from './pacer';

export const DEMIO_API_URL = 'https://my.demio.com/api/v1';

export type DemioEventType = 'upcoming' | 'past' | 'automated';
export type DemioDateStatus = 'scheduled' | 'running' | 'finished' | (string & {});
export type ParticipationStatus = 'completed' | 'did not attend' | 'left early' | 'banned';
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** An entry of `GET /events`: an event with one of its sessions (the next, or for `past` the last). */
export interface DemioEventSummary {
  id: number;
  name: string;
  description?: string;
  date_id: number;
  status: DemioDateStatus;
  /** Unix seconds. */
  timestamp: number;
  zone: string;
  registration_url?: string;
}

export interface DemioEventDate {
  date_id: number;
  status: DemioDateStatus;
  /** Unix seconds. */
  timestamp: number;
  datetime?: string;
  zone: string;
}

export interface DemioEvent {
  id: number;
  name: string;
  description?: string;
  registration_url?: string;
  next_date_id?: number | null;
  dates: DemioEventDate[];
}

/** A participant of a date as the product keeps one: no name, the e-mail only as its hash. */
export interface DemioParticipant {
  email_sha256: string | null;
  attended: boolean;
  status: ParticipationStatus | (string & {});
  /** The registration's UTM fields, when it carried any. */
  utm: Partial<Record<UtmField, string>>;
}

export interface DemioClientOptions {
  /** e.g. https://my.demio.com/api/v1 or the simulator's http://127.0.0.1:PORT/api/v1 */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The account's pacer, shared by every client of the same key (PacerRegistry). */
  pacer?: DemioPacer;
  timeoutMs?: number;
  /** Tries per call, the first included. */
  maxAttempts?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** The wait after a 429: Demio's window is a minute and it says nothing more. */
  rateLimitWaitMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** [0, 1): the jitter source. */
  random?: () => number;
  onRetry?: (event: { attempt: number; delayMs: number; error: DemioError; path: string }) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface WireParticipant {
  email?: string;
  attended?: boolean;
  status?: string;
  custom_fields?: { id?: string; name?: string; value?: string }[];
}

export class DemioClient {
  /** HTTP calls made: tests and logs read it. */
  calls = 0;
  private readonly options: Required<Omit<DemioClientOptions, 'onRetry'>> & Pick<DemioClientOptions, 'onRetry'>;

  constructor(options: DemioClientOptions) {
    this.options = {
      pacer: new DemioPacer(),
      timeoutMs: 30_000,
      maxAttempts: 5,
      backoff: { baseMs: 1000, maxMs: 30_000 },
      rateLimitWaitMs: 61_000,
      fetch: globalThis.fetch.bind(globalThis),
      sleep: defaultSleep,
      random: Math.random,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  /** Whether Demio takes the key and secret (throws DemioAuthError when it does not). */
  async ping(): Promise<void> {
    await this.get<{ pong?: boolean }>('ping');
  }

  listEvents(type?: DemioEventType): Promise<DemioEventSummary[]> {
    return this.get<DemioEventSummary[]>('events', type ? { type } : {}).then((events) => asList(events, 'events'));
  }

  /** An event with all its dates (`activeOnly`: only those not yet finished). */
  getEvent(eventId: number, { activeOnly = false } = {}): Promise<DemioEvent> {
    return this.get<DemioEvent>(`event/${eventId}`, activeOnly ? { active: 'true' } : {});
  }

  getEventDate(eventId: number, dateId: number): Promise<DemioEventDate> {
    return this.get<DemioEventDate>(`event/${eventId}/date/${dateId}`);
  }

  /** Who registered for a date, and whether they came (Demio lists them once the session has run). */
  async listParticipants(dateId: number, status?: 'attended' | ParticipationStatus): Promise<DemioParticipant[]> {
    const body = await this.get<{ participants?: WireParticipant[] }>(
      `report/${dateId}/participants`,
      status ? { status } : {},
    );
    return asList(body?.participants, 'participants').map((p) => ({
      email_sha256: emailHash(p.email),
      attended: p.attended === true,
      status: p.status ?? (p.attended ? 'completed' : 'did not attend'),
      utm: utmOf(p.custom_fields ?? []),
    }));
  }

  /** One GET, paced and retried. */
  private async get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const wait = this.options.pacer.reserve();
      if (wait > 0) await this.options.sleep(wait);
      try {
        return await this.once<T>(path, query);
      } catch (error) {
        if (!(error instanceof DemioError) || !error.transient || attempt >= this.options.maxAttempts) throw error;
        const backoff = this.backoffDelay(attempt);
        const delayMs =
          error instanceof DemioRateLimitError ? Math.max(backoff, this.options.rateLimitWaitMs) : backoff;
        this.options.onRetry?.({ attempt, delayMs, error, path });
        await this.options.sleep(delayMs);
      }
    }
  }

  /** Exponential back-off with equal jitter: a wait in [c/2, c], c = min(max, base·2^(n−1)). */
  private backoffDelay(attempt: number): number {
    const { baseMs, maxMs } = this.options.backoff;
    const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (ceiling / 2) * this.options.random());
  }

  private async once<T>(path: string, query: Record<string, string>): Promise<T> {
    const url = new URL(`${this.options.baseUrl}/${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    this.calls += 1;
    let status: number;
    let text: string;
    try {
      const response = await this.options.fetch(url, {
        headers: { 'Api-Key': this.options.apiKey, 'Api-Secret': this.options.apiSecret, accept: 'application/json' },
        signal: controller.signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted) throw new DemioTimeoutError(this.options.timeoutMs);
      throw new DemioNetworkError(
        `Demio could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      if (status >= 400) throw demioError(status, []);
      throw new DemioProtocolError(`Demio answered HTTP ${status} with a body that is not JSON`, status);
    }
    if (status >= 400) throw demioError(status, messagesOf(body));
    return body as T;
  }
}

function messagesOf(body: unknown): string[] {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? messages.map(String) : [];
}

function asList<T>(value: T[] | undefined, what: string): T[] {
  if (!Array.isArray(value)) throw new DemioProtocolError(`Demio's ${what} answer is not a list`);
  return value;
}

/** Registration fields naming a UTM parameter, by id (`utm_source`) or by name (`UTM Source`). */
function utmOf(fields: readonly { id?: string; name?: string; value?: string }[]): DemioParticipant['utm'] {
  const utm: DemioParticipant['utm'] = {};
  for (const field of fields) {
    const key = [field.id, field.name]
      .map((text) =>
        (text ?? '')
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_'),
      )
      .find((text): text is UtmField => (UTM_FIELDS as readonly string[]).includes(text));
    if (key && field.value) utm[key] = field.value.trim();
  }
  return utm;
}

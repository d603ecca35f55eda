/**
 * Failed calls as the screens see them: react-admin HttpErrors whose body keeps the server JSON and
 * adds `errors` for react-admin forms, and the shared handler of docs/screens.md#errors-and-messages that turns any failure into lines.
 */
import { HttpError } from 'react-admin';

export type TransportFailure = 'network' | 'aborted' | 'timeout' | 'protocol';

/** The transport messages of docs/screens.md#errors-and-messages (the wording of the original client's). */
const TRANSPORT_MESSAGES: Record<TransportFailure, string> = {
  network: 'Network Error',
  aborted: 'Request aborted',
  timeout: 'timeout exceeded',
  protocol: 'Unsupported protocol',
};

/** A call that never got an HTTP answer (status 0). */
export class TransportError extends HttpError {
  readonly failure: TransportFailure;

  constructor(failure: TransportFailure) {
    super(TRANSPORT_MESSAGES[failure], 0, null);
    // HttpError pins its own prototype; restore ours so `instanceof TransportError` holds.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'TransportError';
    this.failure = failure;
  }
}

export const statusMessage = (status: number) => `Request failed with status code ${status}`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose messages are shown without a field name. */
const UNNAMED_KEYS = new Set(['detail', 'non_field_errors']);
/** The key this module adds to error bodies for react-admin forms; never a server field. */
const FORM_ERRORS_KEY = 'errors';

function messagesIn(value: unknown): string[] {
  if (value == null) return [];
  if (typeof value === 'string') return value ? [value] : [];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(messagesIn);
  if (isRecord(value)) return Object.values(value).flatMap(messagesIn);
  return [];
}

const capitalise = (field: string) => field.charAt(0).toUpperCase() + field.slice(1);

/**
 * What a person calls the fields whose keys do not read as words. A `token` is the secret of a
 * link or a Meta connection: its messages say which ("This reset link has expired", "Meta refused
 * this token: …"), so they stand alone.
 */
const FIELD_LABELS: Record<string, string | null> = {
  rule_filter: 'Campaign names',
  rule_task: 'Tasks',
  rule_schedule: 'Schedule',
  rule_alert_schedule: 'Alert schedule',
  meta_ad_account_id: 'Ad account',
  password2: 'Password confirmation',
  new_password2: 'New password confirmation',
  token: null,
  invite_code: null,
};

/** A field's label: its own, or its key as words ('first_name' → 'First name'); a dotted key by its first part. */
export function fieldLabel(field: string): string | null {
  const head = field.split('.')[0]!;
  if (head in FIELD_LABELS) return FIELD_LABELS[head]!;
  return capitalise(head.replaceAll('_', ' '));
}

/** `{email: ["a", "b"], detail: "c"}` → ['Email: a', 'Email: b', 'c']. */
export function flattenErrorBody(body: Record<string, unknown>): string[] {
  return Object.entries(body).flatMap(([field, value]) => {
    if (field === FORM_ERRORS_KEY) return [];
    const messages = messagesIn(value);
    const label = UNNAMED_KEYS.has(field) ? null : fieldLabel(field);
    return label === null ? messages : messages.map((message) => `${label}: ${message}`);
  });
}

/** A field's DRF errors as react-admin form errors: string lists join; nested items keep their shape. */
function formValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.every((item) => typeof item === 'string') ? value.join(' ') : value.map(formValue);
  }
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, formValue(v)]));
  return value == null ? value : String(value);
}

/**
 * DRF `{field: ["a", "b"], non_field_errors: [...]}` →
 * `{field: "a b", root: {serverError: "…"}}`, the shape react-admin forms put under each input.
 */
export function toFormErrors(body: Record<string, unknown>): Record<string, unknown> {
  const errors: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (UNNAMED_KEYS.has(field) || field === FORM_ERRORS_KEY) continue;
    errors[field] = formValue(value);
  }
  const general = [...messagesIn(body.detail), ...messagesIn(body.non_field_errors)];
  const serverError = general.length ? general.join(' ') : flattenErrorBody(body).join(' ');
  if (serverError) errors.root = { serverError };
  return errors;
}

/** The HttpError for a non-2xx answer. */
export function responseError(status: number, json: unknown): HttpError {
  if (!isRecord(json)) return new HttpError(statusMessage(status), status, json ?? null);
  const detail = typeof json.detail === 'string' ? json.detail : undefined;
  const message = detail ?? (flattenErrorBody(json).join(' ') || statusMessage(status));
  return new HttpError(message, status, { ...(json as Record<string, Json>), errors: toFormErrors(json) });
}

/**
 * The shared handler of docs/screens.md#errors-and-messages: a failed call → the lines to show. Object bodies flatten to
 * 'Field: message' lines with the field as a person names it (detail → just the message); a timeout shows nothing; anything else
 * shows 'Internal error: ' + the error's message.
 */
export function errorMessages(error: unknown): string[] {
  if (error == null) return [];
  if (error instanceof TransportError && error.failure === 'timeout') return [];
  const body = (error as { body?: unknown }).body;
  if (isRecord(body)) {
    const lines = flattenErrorBody(body);
    if (lines.length) return lines;
  }
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : statusMessage(0);
  return [`Internal error: ${message}`];
}

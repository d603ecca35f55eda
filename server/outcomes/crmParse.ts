/**
 * CRM lead outcomes read and checked, row by row (pure; docs/api.md, "Lead outcomes (CRM)"):
 * a CSV file's rows or a post's items become outcomes keyed by the e-mail's SHA-256 or the Meta lead
 * id. An e-mail is hashed the moment it is read and appears in no error: messages name the row and
 * the field, never the value.
 */
import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse';
import { IANAZone } from 'luxon';
import { CRM_MAX_ROW_ERRORS, CRM_RETENTION_DAYS, CRM_UPLOAD_MAX_ROWS } from '../../shared/leadOutcomes';
import { EMAIL_PATTERN, type FieldErrors } from '../../shared/validation';
import { emailHash, normaliseEmail } from '../webinar/emailHash';
import { LEAD_STAGES, type LeadStage } from './quality';

/** One outcome as the CRM names it: one of the three ways to name the lead, its stage and its time. */
export interface RawOutcome {
  email?: string;
  email_sha256?: string;
  lead_id?: string;
  stage?: string;
  time?: string;
}

export interface CrmOutcome {
  /** The e-mail's SHA-256 (hex) or the Meta lead id. */
  leadKey: string;
  stage: LeadStage;
  occurredAt: Date;
  /** SHA-256 of (lead, stage, time): the same outcome sent twice is recorded once. */
  sourceRef: string;
}

export interface CrmReadOptions {
  /** The zone of times given without an offset, and of dates (the folder's ad account's). */
  zone: string;
  now: Date;
}

export interface CrmParsed {
  /** The valid outcomes, each once. */
  outcomes: CrmOutcome[];
  /** Valid rows repeating an outcome of an earlier row. */
  repeated: number;
  refused: number;
  /** The first CRM_MAX_ROW_ERRORS refused rows' errors, keyed `<row>.<field>`. */
  errors: FieldErrors;
}

/** The file as a whole cannot be read (no header, not CSV, too many rows): nothing of it is taken. */
export class CrmFileError extends Error {}

export const MESSAGES = {
  required: 'Field is required',
  noLead: 'Give the lead’s e-mail, e-mail SHA-256 or Meta lead id',
  email: 'E-mail must be valid',
  emailSha256: 'E-mail SHA-256 must be 64 hexadecimal characters',
  leadId: 'Lead id must be a Meta lead id (digits only)',
  stage: `Stage must be one of: ${LEAD_STAGES.join(', ')}`,
  time: 'Time must be ISO 8601 (2025-03-04T10:00:00Z, 2025-03-04 10:00) or a date (2025-03-04)',
  future: 'Time is in the future',
  tooOld: `Time is more than ${CRM_RETENTION_DAYS} days ago: outcomes are kept ${CRM_RETENTION_DAYS} days`,
} as const;

/** Dates and times the CRM may send: a date, or a date and time with or without seconds, fraction and offset. */
const TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?)?$/i;
const LEAD_ID_PATTERN = /^\d{1,20}$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/i;
/** A day's grace for a CRM whose clock or zone is ahead. */
const FUTURE_GRACE_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;
/** Zones change their offset on a quarter hour, so one lookup serves every time of a quarter hour. */
const QUARTER_HOUR = 15 * MINUTE;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** What reading a batch of rows shares: the zone's offsets looked up once per quarter hour (a lookup costs ~30 µs). */
interface ReadContext extends CrmReadOptions {
  offsetAt(ms: number): number;
}

function contextOf(options: CrmReadOptions): ReadContext {
  const zone = IANAZone.isValidZone(options.zone) ? IANAZone.create(options.zone) : IANAZone.create('UTC');
  const offsets = new Map<number, number>();
  return {
    ...options,
    offsetAt(ms) {
      const quarter = Math.floor(ms / QUARTER_HOUR);
      let offset = offsets.get(quarter);
      if (offset === undefined) {
        offset = zone.offset(quarter * QUARTER_HOUR);
        offsets.set(quarter, offset);
      }
      return offset;
    },
  };
}

/** The instant a wall-clock time (as UTC milliseconds) names in the context's zone. */
function fromWallClock(wall: number, context: ReadContext): number {
  const guess = wall - context.offsetAt(wall) * MINUTE;
  return wall - context.offsetAt(guess) * MINUTE;
}

/** A date or a date and time (ISO 8601); without an offset, in the context's zone. Not Date.parse: it takes 30 February. */
function timeOf(value: string, context: ReadContext): Date | string {
  if (!value) return MESSAGES.required;
  const m = TIME_PATTERN.exec(value);
  if (!m) return MESSAGES.time;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, millis);
  const check = new Date(wall);
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59 ||
    offsetHours > 14 ||
    offsetMinutes > 59
  )
    return MESSAGES.time;
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const at = m[8] ? wall - offset * MINUTE : fromWallClock(wall, context);
  if (at > context.now.getTime() + FUTURE_GRACE_MS) return MESSAGES.future;
  if (at < context.now.getTime() - CRM_RETENTION_DAYS * DAY_MS) return MESSAGES.tooOld;
  return new Date(at);
}

/** The lead key and the field it came from, or the field's error. Meta's lead id first, then a hash, then the e-mail. */
function leadKeyOf(raw: RawOutcome): { key: string } | { field: keyof RawOutcome; message: string } {
  const leadId = text(raw.lead_id);
  if (leadId) return LEAD_ID_PATTERN.test(leadId) ? { key: leadId } : { field: 'lead_id', message: MESSAGES.leadId };
  const sha = text(raw.email_sha256);
  if (sha)
    return SHA256_PATTERN.test(sha)
      ? { key: sha.toLowerCase() }
      : { field: 'email_sha256', message: MESSAGES.emailSha256 };
  const email = text(raw.email);
  if (!email) return { field: 'email', message: MESSAGES.noLead };
  const hash = EMAIL_PATTERN.test(normaliseEmail(email)) ? emailHash(email) : null;
  return hash ? { key: hash } : { field: 'email', message: MESSAGES.email };
}

export const sourceRefOf = (leadKey: string, stage: LeadStage, occurredAt: Date) =>
  createHash('sha256').update(`${leadKey}\n${stage}\n${occurredAt.toISOString()}`, 'utf8').digest('hex');

/** One row or item: the outcome, or an error per bad field. */
export const readOutcome = (raw: RawOutcome, options: CrmReadOptions) => readRow(raw, contextOf(options));

function readRow(raw: RawOutcome, context: ReadContext): { outcome: CrmOutcome } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const lead = leadKeyOf(raw);
  if ('field' in lead) errors[lead.field] = lead.message;
  const stageText = text(raw.stage).toLowerCase();
  const stage = (LEAD_STAGES as readonly string[]).includes(stageText) ? (stageText as LeadStage) : null;
  if (!stage) errors.stage = stageText ? MESSAGES.stage : MESSAGES.required;
  const at = timeOf(text(raw.time), context);
  if (typeof at === 'string') errors.time = at;
  if ('field' in lead || !stage || typeof at === 'string') return { errors };
  return { outcome: { leadKey: lead.key, stage, occurredAt: at, sourceRef: sourceRefOf(lead.key, stage, at) } };
}

/** Reads rows one at a time: each outcome once, each bad row's errors (the first CRM_MAX_ROW_ERRORS rows'). */
function createReader(options: CrmReadOptions) {
  const context = contextOf(options);
  const seen = new Set<string>();
  const result: CrmParsed = { outcomes: [], repeated: 0, refused: 0, errors: {} };
  /** `row` names the row in errors: `rows.<line>` of a file, `outcomes.<index>` of a post, '' for a post of one. */
  function add(row: string, raw: RawOutcome): void {
    const read = readRow(raw, context);
    if ('errors' in read) {
      if (result.refused++ < CRM_MAX_ROW_ERRORS)
        for (const [field, message] of Object.entries(read.errors))
          result.errors[row ? `${row}.${field}` : field] = [message];
      return;
    }
    if (seen.has(read.outcome.sourceRef)) result.repeated++;
    else {
      seen.add(read.outcome.sourceRef);
      result.outcomes.push(read.outcome);
    }
  }
  return { add, result };
}

/** A post's items, each named by `row` in the errors. */
export function readOutcomes(items: Iterable<{ row: string; raw: RawOutcome }>, options: CrmReadOptions): CrmParsed {
  const reader = createReader(options);
  for (const { row, raw } of items) reader.add(row, raw);
  return reader.result;
}

/** The columns a header may name, by the name after normalising (lower case, spaces and hyphens as `_`). */
const COLUMN_NAMES: Record<string, keyof RawOutcome> = {
  email: 'email',
  e_mail: 'email',
  email_sha256: 'email_sha256',
  lead_id: 'lead_id',
  stage: 'stage',
  time: 'time',
  date: 'time',
};

const columnOf = (header: string) =>
  COLUMN_NAMES[
    header
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
  ];

/** Comma, semicolon (spreadsheets in many European locales) or tab: whichever the header row holds most. */
function delimiterOf(csv: string): string {
  const firstLine = csv.slice(0, csv.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted value is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted value is followed by more text before the next separator',
  CSV_MAX_RECORD_SIZE: 'a row is longer than 64 KB',
};

/** The error of a file csv-parse refuses, in our words (its own may quote the data). */
function fileErrorOf(error: CsvError): CrmFileError {
  const problem = CSV_PROBLEMS[error.code] ?? 'it is not valid CSV';
  return new CrmFileError(`The file cannot be read at line ${error.lines}: ${problem}.`);
}

type CsvRecord = { record: string[]; info: { lines: number } };

/** The header's columns (the first of a repeated one counts), or CrmFileError naming the ones missing. */
function columnsOf(header: string[]): (keyof RawOutcome | undefined)[] {
  const columns = header.map(columnOf);
  const missing = [
    columns.some((c) => c === 'email' || c === 'email_sha256' || c === 'lead_id') ? null : 'email (or lead_id)',
    columns.includes('stage') ? null : 'stage',
    columns.includes('time') ? null : 'time',
  ].filter(Boolean);
  if (missing.length)
    throw new CrmFileError(
      `The first row must name the columns email (or email_sha256, or lead_id), stage and time; missing: ${missing.join(', ')}.`,
    );
  return columns;
}

/** Characters the parser is given at a time, the event loop getting a turn between (10,000 rows cost ~0.3 s). */
const SLICE = 64 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The text in slices that never split a surrogate pair. */
function* slicesOf(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * A CSV file: a header row naming `email`, `email_sha256` or `lead_id`, then `stage` and `time`
 * (other columns are ignored, never read), one outcome a row; rows are named by their line
 * (`rows.7.stage`). Read a slice at a time, so a big file does not hold up the server's other
 * requests. Rejects with CrmFileError when the file as a whole cannot be taken.
 */
export async function parseCrmCsv(csv: string, options: CrmReadOptions): Promise<CrmParsed> {
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(csv),
    // Any mix of line ends (a file pasted together from two exports).
    record_delimiter: ['\r\n', '\n', '\r'],
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: 64 * 1024,
  });
  const pending: CsvRecord[] = [];
  let failure: unknown = null;
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (error) => {
      failure = error;
      resolve();
    });
  });
  parser.on('readable', () => {
    for (let r = parser.read(); r !== null; r = parser.read()) pending.push(r as CsvRecord);
  });

  const reader = createReader(options);
  let columns: (keyof RawOutcome | undefined)[] | null = null;
  let rows = 0;
  const take = () => {
    if (failure) throw failure instanceof CsvError ? fileErrorOf(failure) : failure;
    for (const { record, info } of pending.splice(0)) {
      if (!columns) {
        columns = columnsOf(record);
        continue;
      }
      if (!record.some((cell) => cell !== '')) continue;
      if (++rows > CRM_UPLOAD_MAX_ROWS)
        throw new CrmFileError(`The file has more than ${CRM_UPLOAD_MAX_ROWS.toLocaleString('en')} rows: split it.`);
      const raw: RawOutcome = {};
      columns.forEach((column, i) => {
        if (column && raw[column] === undefined) raw[column] = record[i] ?? '';
      });
      reader.add(`rows.${info.lines}`, raw);
    }
  };
  try {
    for (const slice of slicesOf(csv)) {
      parser.write(slice);
      await nextTurn();
      take();
    }
    parser.end();
    await ended;
    take();
  } finally {
    parser.destroy();
  }
  if (!columns) throw new CrmFileError('The file is empty: it needs a header row and a row per outcome.');
  return reader.result;
}

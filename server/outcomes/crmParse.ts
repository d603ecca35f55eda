/**
 * CRM lead outcomes read and checked, row by row (pure; docs/api.md, "Lead outcomes (CRM)"):
 * a CSV file's rows or a post's items become outcomes keyed by the e-mail's SHA-256 or the Meta lead
 * id. An e-mail is hashed the moment it is read and appears in no error: messages name the row and
 * the field, never the value.
 */
import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { CRM_MAX_ROW_ERRORS, CRM_UPLOAD_MAX_ROWS } from '../../src/domain/leadOutcomes';
import { EMAIL_PATTERN, type FieldErrors } from '../../src/domain/validation';
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
  tooOld: 'Time must be in 2000 or later',
} as const;

/** Dates and times the CRM may send: a date, or a date and time with or without seconds, fraction and offset. */
const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const LEAD_ID_PATTERN = /^\d{1,20}$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/i;
/** A day's grace for a CRM whose clock or zone is ahead. */
const FUTURE_GRACE_MS = 24 * 60 * 60 * 1000;
const EARLIEST = Date.UTC(2000, 0, 1);

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function timeOf(value: string, { zone, now }: CrmReadOptions): Date | string {
  if (!value) return MESSAGES.required;
  if (!TIME_PATTERN.test(value)) return MESSAGES.time;
  const parsed = DateTime.fromISO(value.replace(' ', 'T').replace(',', '.'), { zone });
  if (!parsed.isValid) return MESSAGES.time;
  const at = parsed.toJSDate();
  if (at.getTime() > now.getTime() + FUTURE_GRACE_MS) return MESSAGES.future;
  if (at.getTime() < EARLIEST) return MESSAGES.tooOld;
  return at;
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
export function readOutcome(
  raw: RawOutcome,
  options: CrmReadOptions,
): { outcome: CrmOutcome } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const lead = leadKeyOf(raw);
  if ('field' in lead) errors[lead.field] = lead.message;
  const stageText = text(raw.stage).toLowerCase();
  const stage = (LEAD_STAGES as readonly string[]).includes(stageText) ? (stageText as LeadStage) : null;
  if (!stage) errors.stage = stageText ? MESSAGES.stage : MESSAGES.required;
  const at = timeOf(text(raw.time), options);
  if (typeof at === 'string') errors.time = at;
  if ('field' in lead || !stage || typeof at === 'string') return { errors };
  return { outcome: { leadKey: lead.key, stage, occurredAt: at, sourceRef: sourceRefOf(lead.key, stage, at) } };
}

/** Reads items named by `row` (`rows.<line>` of a file, `outcomes.<index>` of a post, empty for a post of one): each outcome once, each bad row's errors. */
export function readOutcomes(items: Iterable<{ row: string; raw: RawOutcome }>, options: CrmReadOptions): CrmParsed {
  const seen = new Set<string>();
  const result: CrmParsed = { outcomes: [], repeated: 0, refused: 0, errors: {} };
  for (const { row, raw } of items) {
    const read = readOutcome(raw, options);
    if ('errors' in read) {
      if (result.refused++ < CRM_MAX_ROW_ERRORS)
        for (const [field, message] of Object.entries(read.errors))
          result.errors[row ? `${row}.${field}` : field] = [message];
      continue;
    }
    const identity = `${read.outcome.leadKey}\n${read.outcome.stage}\n${read.outcome.sourceRef}`;
    if (seen.has(identity)) result.repeated++;
    else {
      seen.add(identity);
      result.outcomes.push(read.outcome);
    }
  }
  return result;
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

/**
 * A CSV file: a header row naming `email`, `email_sha256` or `lead_id`, then `stage` and `time`
 * (other columns are ignored, never read), one outcome a row; rows are named by their line
 * (`rows.7.stage`). Throws CrmFileError when the file as a whole cannot be taken.
 */
export function parseCrmCsv(csv: string, options: CrmReadOptions): CrmParsed {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, {
      bom: true,
      delimiter: delimiterOf(csv),
      // Any mix of line ends (a file pasted together from two exports).
      record_delimiter: ['\r\n', '\n', '\r'],
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: 64 * 1024,
      // The header, the rows allowed and one more to tell that there were too many.
      to: CRM_UPLOAD_MAX_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) throw fileErrorOf(error);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw new CrmFileError('The file is empty: it needs a header row and a row per outcome.');
  if (rows.length > CRM_UPLOAD_MAX_ROWS)
    throw new CrmFileError(`The file has more than ${CRM_UPLOAD_MAX_ROWS.toLocaleString('en')} rows: split it.`);
  const columns = header.record.map(columnOf);
  const missing = [
    columns.some((c) => c === 'email' || c === 'email_sha256' || c === 'lead_id') ? null : 'email (or lead_id)',
    columns.includes('stage') ? null : 'stage',
    columns.includes('time') ? null : 'time',
  ].filter(Boolean);
  if (missing.length)
    throw new CrmFileError(
      `The first row must name the columns email (or email_sha256, or lead_id), stage and time; missing: ${missing.join(', ')}.`,
    );
  const items = rows
    .filter(({ record }) => record.some((cell) => cell !== ''))
    .map(({ record, info }) => {
      const raw: RawOutcome = {};
      columns.forEach((column, i) => {
        if (column && raw[column] === undefined) raw[column] = record[i] ?? '';
      });
      return { row: `rows.${info.lines}`, raw };
    });
  return readOutcomes(items, options);
}

import { describe, expect, it } from 'vitest';
import { CRM_UPLOAD_MAX_ROWS } from '../../../shared/leadOutcomes';
import { CrmFileError, MESSAGES, parseCrmCsv, readOutcome } from '../../../server/outcomes/crmParse';
import { emailHash } from '../../../server/webinar/emailHash';

const options = { zone: 'America/New_York', now: new Date('2025-06-01T12:00:00Z') };
const parse = (csv: string) => parseCrmCsv(csv, options);
const errorsOf = (raw: Record<string, string>) => {
  const read = readOutcome(raw, options);
  return 'errors' in read ? read.errors : {};
};
const timeOf = (time: string) => {
  const read = readOutcome({ lead_id: '123', stage: 'won', time }, options);
  return 'outcome' in read ? read.outcome.occurredAt.toISOString() : read.errors.time;
};

describe('readOutcome: one row', () => {
  it.each([
    ['a known stage, any case', { email: 'a@b.com', stage: ' Qualified ', time: '2025-01-02' }, {}],
    ['an unknown stage', { email: 'a@b.com', stage: 'hot', time: '2025-01-02' }, { stage: MESSAGES.stage }],
    ['no stage', { email: 'a@b.com', stage: '', time: '2025-01-02' }, { stage: MESSAGES.required }],
    ['no time', { email: 'a@b.com', stage: 'won', time: ' ' }, { time: MESSAGES.required }],
    ['no lead', { stage: 'won', time: '2025-01-02' }, { email: MESSAGES.noLead }],
    ['a bad e-mail', { email: 'not an address', stage: 'won', time: '2025-01-02' }, { email: MESSAGES.email }],
    ['a bad lead id', { lead_id: 'L-12', stage: 'won', time: '2025-01-02' }, { lead_id: MESSAGES.leadId }],
    ['a bad hash', { email_sha256: 'abc', stage: 'won', time: '2025-01-02' }, { email_sha256: MESSAGES.emailSha256 }],
    [
      'every field bad at once',
      { email: 'x', stage: 'maybe', time: 'soon' },
      { email: MESSAGES.email, stage: MESSAGES.stage, time: MESSAGES.time },
    ],
  ])('%s', (_name, raw, expected) => {
    expect(errorsOf(raw)).toEqual(expected);
  });

  it('keys a lead by its e-mail SHA-256 (trimmed, lower-case), a given hash, or the Meta lead id first', () => {
    const keyOf = (raw: Record<string, string>) => {
      const read = readOutcome({ stage: 'won', time: '2025-01-02', ...raw }, options);
      return 'outcome' in read ? read.outcome.leadKey : null;
    };
    const hash = emailHash('ann@example.com')!;
    expect(keyOf({ email: '  Ann@Example.COM ' })).toBe(hash);
    expect(keyOf({ email_sha256: hash.toUpperCase() })).toBe(hash);
    expect(keyOf({ lead_id: '1234567890123456', email: 'ann@example.com' })).toBe('1234567890123456');
  });

  it.each([
    ['a date: the start of the day in the ad account’s zone', '2025-01-02', '2025-01-02T05:00:00.000Z'],
    ['a time without an offset: in the ad account’s zone', '2025-01-02T10:30', '2025-01-02T15:30:00.000Z'],
    ['a space instead of T', '2025-01-02 10:30:15', '2025-01-02T15:30:15.000Z'],
    ['UTC', '2025-01-02T10:30:00Z', '2025-01-02T10:30:00.000Z'],
    ['an offset', '2025-01-02T10:30:00.250+01:00', '2025-01-02T09:30:00.250Z'],
    ['a day that does not exist', '2025-02-30', MESSAGES.time],
    ['a local date format', '02/01/2025', MESSAGES.time],
    ['a week date', '2025-W01-1', MESSAGES.time],
    ['a time alone', '10:30', MESSAGES.time],
    ['more than a day ahead', '2025-06-03', MESSAGES.future],
    ['more than 400 days ago (past the retention)', '2024-04-27T00:00:00Z', MESSAGES.tooOld],
    ['400 days ago at most', '2024-04-28T12:00:00Z', '2024-04-28T12:00:00.000Z'],
  ])('times: %s', (_name, time, expected) => {
    expect(timeOf(time)).toBe(expected);
  });
});

describe('parseCrmCsv: a file', () => {
  it('reads a header naming its columns in any case and order, ignoring other columns', async () => {
    const parsed = await parse('Name,Stage,E-mail,Time,Phone\nAnn,won,ann@example.com,2025-01-02T10:00:00Z,555\n');
    expect(parsed).toMatchObject({ refused: 0, repeated: 0, errors: {} });
    expect(parsed.outcomes).toEqual([
      {
        leadKey: emailHash('ann@example.com'),
        stage: 'won',
        occurredAt: new Date('2025-01-02T10:00:00Z'),
        sourceRef: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
  });

  it('names each bad row by its line in the file and each bad field, and keeps the good rows', async () => {
    const csv = [
      'email,stage,time',
      'ann@example.com,qualified,2025-01-02',
      '',
      'bob@example.com,hot,2025-01-02',
      ',won,2025-01-02',
      'cy@example.com,booked,yesterday',
      'dee@example.com,won,2025-01-03',
    ].join('\r\n');
    const parsed = await parse(csv);
    expect(parsed.outcomes.map((o) => o.stage)).toEqual(['qualified', 'won']);
    expect(parsed.refused).toBe(3);
    expect(parsed.errors).toEqual({
      'rows.4.stage': [MESSAGES.stage],
      'rows.5.email': [MESSAGES.noLead],
      'rows.6.time': [MESSAGES.time],
    });
  });

  it('never puts an e-mail in an error', async () => {
    const parsed = await parse(
      'email,stage,time\nsecret.person@example.com,wonn,2025-01-02\nsecret.person@,won,2025-01-02\n',
    );
    expect(JSON.stringify(parsed.errors)).not.toContain('secret');
  });

  it('takes an outcome repeated in the file once (the same lead, stage and instant, however written)', async () => {
    const csv = [
      'email,stage,time',
      'ann@example.com,won,2025-01-02',
      ' ANN@example.com ,Won,2025-01-02T00:00:00-05:00',
      'ann@example.com,won,2025-01-03',
      'ann@example.com,booked,2025-01-02',
    ].join('\n');
    const parsed = await parse(csv);
    expect(parsed.outcomes).toHaveLength(3);
    expect(parsed.repeated).toBe(1);
  });

  it('reads semicolons and tabs, a byte-order mark, quoted values and mixed line ends', async () => {
    expect(
      (await parse('\uFEFFemail;stage;time\r\n"ann@example.com";won;2025-01-02\nbob@example.com;won;2025-01-02\r'))
        .outcomes,
    ).toHaveLength(2);
    expect((await parse('lead_id\tstage\ttime\n123\twon\t2025-01-02\n')).outcomes).toHaveLength(1);
  });

  it.each([
    ['an empty file', '', /empty/],
    ['no stage column', 'email,time\na@b.com,2025-01-02\n', /missing: stage/],
    ['no lead column', 'name,stage,time\nAnn,won,2025-01-02\n', /missing: email \(or lead_id\)/],
    ['a quote never closed', 'email,stage,time\n"a@b.com,won,2025-01-02\n', /line 2: a quoted value is never closed/],
  ])('refuses the whole file for %s', async (_name, csv, message) => {
    await expect(parse(csv)).rejects.toThrow(CrmFileError);
    await expect(parse(csv)).rejects.toThrow(message);
  });

  it(`refuses a file of more than ${CRM_UPLOAD_MAX_ROWS} rows`, async () => {
    const rows = Array.from({ length: CRM_UPLOAD_MAX_ROWS + 1 }, (_, i) => `${i + 1},won,2025-01-02`);
    await expect(parse(`lead_id,stage,time\n${rows.join('\n')}`)).rejects.toThrow(/more than 100,000 rows/);
  });

  it('lists the errors of the first 200 refused rows and counts them all', async () => {
    const rows = Array.from({ length: 300 }, () => 'a@b.com,hot,2025-01-02');
    const parsed = await parse(`email,stage,time\n${rows.join('\n')}`);
    expect(parsed.refused).toBe(300);
    expect(Object.keys(parsed.errors)).toHaveLength(200);
  });
});

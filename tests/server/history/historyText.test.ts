/**
 * The history's text form read back: each line's cells land at their day's hours, a blank cell or a
 * blank field (a metric not recorded that day) stays unreported, an hour outside the read mask stays
 * unread, and an ad's lines together make one series.
 */
import { describe, expect, it } from 'vitest';
import { seriesFromTexts } from '../../../server/history/timeline';

const START = Date.UTC(2026, 10, 1);
const span = { startMs: START, hours: 48 };
const cells = (f: (h: number) => string) => Array.from({ length: 24 }, (_, h) => f(h)).join(',');
const line = (ad: string, day: string, readMask: number, ...metrics: string[]) =>
  [ad, 'c1', day, readMask, 0, readMask, readMask, ...metrics].join('\t');

describe('the history text reader', () => {
  it('puts each cell at its hour, across days, and keeps an ad’s lines in one series', () => {
    const text = [
      line(
        'ad1',
        '2026-11-01',
        0xffffff,
        cells((h) => String(h * 100)),
        cells((h) => String(h * 10)),
      ),
      line(
        'ad1',
        '2026-11-02',
        0xffffff,
        cells((h) => String(5000 + h)),
        cells(() => '7'),
      ),
    ].join('\n');
    const [series, ...others] = seriesFromTexts([text], [], span, ['spendCents', 'impressions']);
    expect(others).toEqual([]);
    expect(series!.values.spendCents[3]).toBe(300);
    expect(series!.values.impressions[23]).toBe(230);
    expect(series!.values.spendCents[24 + 5]).toBe(5005);
    expect(series!.values.impressions[47]).toBe(7);
    expect(series!.latest[47]).toBe(47);
    expect(Number.isNaN(series!.values.leads[3]!)).toBe(true);
  });

  it('leaves blank cells, blank fields and unread hours unreported, and reads negative numbers', () => {
    const readFirstTwelve = 0xfff;
    const text = line(
      'ad2',
      '2026-11-02',
      readFirstTwelve,
      cells((h) => (h === 1 ? '' : h === 2 ? '-40' : String(h))),
      '',
      cells(() => '1'),
    );
    const [series] = seriesFromTexts([text], [], span, ['spendCents', 'impressions', 'leads']);
    const spend = series!.values.spendCents;
    expect(spend[24]).toBe(0);
    expect(Number.isNaN(spend[25]!)).toBe(true);
    expect(spend[26]).toBe(-40);
    expect(spend[24 + 11]).toBe(11);
    expect(Number.isNaN(spend[24 + 12]!)).toBe(true);
    expect(series!.read[24 + 12]).toBe(0);
    expect(Number.isNaN(series!.values.impressions[24]!)).toBe(true);
    expect(series!.values.leads[24 + 11]).toBe(1);
    expect(series!.latest[47]).toBe(24 + 11);
  });

  it('reads several ads of several texts, each in its own series', () => {
    const texts = [
      [
        line(
          'a',
          '2026-11-01',
          1,
          cells(() => '1'),
          cells(() => '2'),
        ),
        line(
          'b',
          '2026-11-01',
          1,
          cells(() => '3'),
          cells(() => '4'),
        ),
      ].join('\n'),
      line(
        'c',
        '2026-11-02',
        1,
        cells(() => '5'),
        cells(() => '6'),
      ),
    ];
    const ads = seriesFromTexts(texts, [], span, ['spendCents', 'impressions']);
    expect(ads.map((s) => [s.adId, s.values.spendCents[s.latest[47]!]])).toEqual([
      ['a', 1],
      ['b', 3],
      ['c', 5],
    ]);
  });
});

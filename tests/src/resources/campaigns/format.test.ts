import { describe, expect, it } from 'vitest';
import {
  adsManagerUrl,
  formatMoney,
  formatPercent,
  formatTime,
  formatUsDate,
  formatUsDateTime,
  isCompleteNumber,
  isIdListText,
  isNumberText,
  resultCount,
} from '../../../../src/resources/campaigns/format';

describe('campaign formatting', () => {
  it.each([
    [1234.5, '$1,234.50'],
    [0, '$0.00'],
    [0.005, '$0.01'],
    ['41.46', '$41.46'],
    [null, 'N/A'],
    [undefined, 'N/A'],
    ['', 'N/A'],
  ])('money %s → %s', (value, shown) => {
    expect(formatMoney(value)).toBe(shown);
  });

  it('writes money in the ad account currency, dollars when it is unknown', () => {
    expect(formatMoney(10, 'EUR')).toBe('€10.00');
    expect(formatMoney(10, 'NOT-A-CURRENCY')).toBe('$10.00');
  });

  it.each([
    [1.4896, '1.49%'],
    [0, '0.00%'],
    ['12', '12.00%'],
    [null, 'N/A'],
  ])('percent %s → %s', (value, shown) => {
    expect(formatPercent(value)).toBe(shown);
  });

  it('writes event dates as US calendar days, whatever the time zone', () => {
    expect(formatUsDate('2026-03-04')).toBe('3/4/2026');
    expect(formatUsDate('2026-12-31')).toBe('12/31/2026');
    expect(formatUsDate(null)).toBe('N/A');
    expect(formatUsDate('soon')).toBe('N/A');
  });

  it('writes instants as US dates with 12-hour times in the given time zone', () => {
    expect(formatUsDateTime('2026-03-14T22:30:00Z', 'America/New_York')).toBe('3/14/2026, 6:30 PM');
    expect(formatUsDateTime('2026-03-14T22:30:00Z', 'America/Los_Angeles')).toBe('3/14/2026, 3:30 PM');
    expect(formatUsDateTime('2026-03-15T00:05:00Z', 'UTC')).toBe('3/15/2026, 12:05 AM');
    expect(formatUsDateTime(null)).toBe('N/A');
    expect(formatUsDateTime('garbage')).toBe('N/A');
  });

  it('writes event times in 12-hour form', () => {
    expect(formatTime('18:30')).toBe('6:30 PM');
    expect(formatTime(null)).toBe('N/A');
  });

  it('counts the result from the leads, or from the lead action, 0 when none', () => {
    expect(resultCount({ leads: 7 })).toBe(7);
    expect(
      resultCount({
        leads: null,
        actions: [
          { action_type: 'link_click', value: '40' },
          { action_type: 'lead', value: '3' },
        ],
      }),
    ).toBe(3);
    expect(resultCount({ leads: null, actions: [] })).toBe(0);
  });

  it('links the campaign in Ads Manager', () => {
    const url = new URL(
      adsManagerUrl({
        campaign_id: '120200000000000001',
        meta_ad_account: { ad_account_id_int: 574702335981050 } as never,
      }),
    );
    expect(url.origin + url.pathname).toBe('https://adsmanager.facebook.com/adsmanager/manage/campaigns');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      act: '574702335981050',
      selected_campaign_ids: '120200000000000001',
    });
  });

  it('accepts numbers only in the number filters', () => {
    for (const ok of ['', '1', '12.5', '-3', '.5', '1.']) expect(isNumberText(ok)).toBe(true);
    for (const bad of ['a', '1a', '1.2.3', '1,5', '--1']) expect(isNumberText(bad)).toBe(false);
    expect(isCompleteNumber('-')).toBe(false);
    expect(isCompleteNumber('.')).toBe(false);
    expect(isCompleteNumber('1.')).toBe(true);
    expect(isIdListText('123, 456,789')).toBe(true);
    expect(isIdListText('12a')).toBe(false);
  });
});

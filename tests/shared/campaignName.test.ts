import { describe, expect, it } from 'vitest';
import { formatEventTime, parseCampaignName, topicName } from '../../shared/campaignName';
import { CAMPAIGN_NAME_OPTIONS, TOPICS } from '../../shared/constants';

describe('parseCampaignName', () => {
  it.each(CAMPAIGN_NAME_OPTIONS.filter((o) => o !== 'EDM'))('reads the campaign name option %s', (option) => {
    const [topic, type] = option.split('-');
    expect(parseCampaignName(`EDM - ${option} - 03/14/2026 6:30 PM - Harbor Wealth`)).toEqual({
      topic,
      is_webinar: type === 'W',
      event_date: '2026-03-14',
      event_time: '18:30',
    });
  });

  it.each(TOPICS.map((t) => t.code))('reads every topic code with either event type: %s', (code) => {
    expect(parseCampaignName(`EDM | ${code}-W | 2026-05-01`)).toMatchObject({
      topic: code,
      is_webinar: true,
      event_date: '2026-05-01',
    });
    expect(parseCampaignName(`EDM | ${code}-S | 2026-05-01`)).toMatchObject({ topic: code, is_webinar: false });
  });

  it.each([
    [
      'EDM - ep-w - 3/4/26 9 am - Smith',
      { topic: 'EP', is_webinar: true, event_date: '2026-03-04', event_time: '09:00' },
    ],
    [
      'EDM_401K-S_12.01.2026_11:30AM',
      { topic: '401k', is_webinar: false, event_date: '2026-12-01', event_time: '11:30' },
    ],
    [
      'EDM - TIR-W - 2026-03-14 18:30 - Harbor',
      { topic: 'TIR', is_webinar: true, event_date: '2026-03-14', event_time: '18:30' },
    ],
    ['EDM - SS-W - 03/14/2026 12 PM', { topic: 'SS', is_webinar: true, event_date: '2026-03-14', event_time: '12:00' }],
    [
      'EDM - SS-W - 03/14/2026 12:15 a.m.',
      { topic: 'SS', is_webinar: true, event_date: '2026-03-14', event_time: '00:15' },
    ],
    ['EDM - TIR Evergreen Guide - Harbor', { topic: 'TIR', is_webinar: null, event_date: null, event_time: null }],
    ['EDM - MED-W - Harbor', { topic: 'MED', is_webinar: true, event_date: null, event_time: null }],
    ['Brand Awareness - Harbor', { topic: null, is_webinar: null, event_date: null, event_time: null }],
    ['DLM Retargeting - Site Visitors', { topic: null, is_webinar: null, event_date: null, event_time: null }],
    ['', { topic: null, is_webinar: null, event_date: null, event_time: null }],
  ] as const)('%s', (name, expected) => {
    expect(parseCampaignName(name)).toEqual(expected);
  });

  it.each([
    ['an unknown topic code', 'EDM - XYZ-W - 03/14/2026', { topic: null, is_webinar: null }],
    ['a code glued to a word', 'EDM - STEP-W - 03/14/2026', { topic: null, is_webinar: null }],
    ['an event type other than W or S', 'EDM - EP-X - 03/14/2026', { topic: 'EP', is_webinar: null }],
    ['a lower-case bare code, which is a word', 'EDM - pp guide', { topic: null }],
    ['a month 13', 'EDM - EP-W - 13/14/2026 6 PM', { event_date: null, event_time: '18:00' }],
    ['February 30', 'EDM - EP-W - 2026-02-30', { event_date: null }],
    ['a 13 PM time', 'EDM - EP-W - 03/14/2026 13 PM', { event_date: '2026-03-14', event_time: null }],
    ['a date without a year', 'EDM - EP-W - 03/14 6 PM', { event_date: null, event_time: '18:00' }],
    ['a 25:00 time', 'EDM - EP-W - 2026-03-14 25:00', { event_time: null }],
    ['a word that starts with am', 'EDM - RP-W - 3/4/2026 5 Amazing Tips', { event_time: null }],
  ] as const)('keeps nulls for %s', (_label, name, expected) => {
    expect(parseCampaignName(name)).toMatchObject(expected);
  });

  it('treats null and undefined as an empty name', () => {
    expect(parseCampaignName(null)).toEqual({ topic: null, is_webinar: null, event_date: null, event_time: null });
    expect(parseCampaignName(undefined).topic).toBeNull();
  });
});

describe('formatEventTime and topicName', () => {
  it.each([
    ['00:15', '12:15 AM'],
    ['09:00', '9:00 AM'],
    ['12:00', '12:00 PM'],
    ['18:30', '6:30 PM'],
    ['23:59', '11:59 PM'],
  ])('%s → %s', (time, shown) => {
    expect(formatEventTime(time)).toBe(shown);
  });

  it('gives null for missing or malformed times and unknown topics', () => {
    expect(formatEventTime(null)).toBeNull();
    expect(formatEventTime('6pm')).toBeNull();
    expect(topicName('EP')).toBe('Estate Planning');
    expect(topicName('401k')).toBe('401(k) Rollovers');
    expect(topicName('XX')).toBeNull();
  });
});

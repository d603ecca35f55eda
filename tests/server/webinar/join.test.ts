import { describe, expect, it } from 'vitest';
import { emailHash } from '../../../server/webinar/emailHash';
import { joinOutcomes, type LeadForJoin, type ParticipantForJoin } from '../../../server/webinar/join';

const h = (email: string) => emailHash(email)!;
const lead = (id: string, adId: string, email: string, createdTime = 0): LeadForJoin => ({
  id,
  adId,
  createdTime,
  emailHash: h(email),
});
const participant = (email: string, attended: boolean, dateId = 1, utm?: ParticipantForJoin['utm']) => ({
  dateId,
  emailHash: h(email),
  attended,
  ...(utm ? { utm } : {}),
});

describe('joinOutcomes', () => {
  const leads = [
    lead('l1', 'cheap', 'a@example.com'),
    lead('l2', 'cheap', 'b@example.com'),
    lead('l3', 'cheap', 'c@example.com'),
    lead('l4', 'cheap', 'd@example.com'),
    lead('l5', 'dear', 'e@example.com'),
    lead('l6', 'dear', 'f@example.com'),
  ];
  const spend = new Map([
    ['cheap', 40],
    ['dear', 60],
  ]);

  it('gives each ad its registrations, attendees, show-up rate and cost per attendee', () => {
    const result = joinOutcomes(
      leads,
      [
        participant('A@Example.com ', true),
        participant('b@example.com', false),
        participant('c@example.com', false),
        participant('e@example.com', true),
        participant('f@example.com', true),
      ],
      spend,
    );
    expect(result.ads).toEqual([
      {
        adId: 'cheap',
        leads: 4,
        registrations: 3,
        websiteRegistrations: 0,
        attendees: 1,
        showUpRate: 1 / 3,
        spend: 40,
        costPerAttendee: 40,
        costPerRegistration: 40 / 3,
      },
      {
        adId: 'dear',
        leads: 2,
        registrations: 2,
        websiteRegistrations: 0,
        attendees: 2,
        showUpRate: 1,
        spend: 60,
        costPerAttendee: 30,
        costPerRegistration: 30,
      },
    ]);
    expect(result.unmatched).toBe(0);
  });

  it('counts a lead registered for two events once, as an attendee if they came to either', () => {
    const result = joinOutcomes(
      leads,
      [participant('a@example.com', false, 1), participant('a@example.com', true, 2)],
      spend,
    );
    expect(result.ads.find((a) => a.adId === 'cheap')).toMatchObject({ registrations: 1, attendees: 1, showUpRate: 1 });
  });

  it('credits a website registration to the ad its UTM fields name', () => {
    const result = joinOutcomes(
      leads,
      [participant('web@example.com', true, 1, { utm_source: 'facebook', utm_content: 'dear' })],
      spend,
    );
    expect(result.ads.find((a) => a.adId === 'dear')).toMatchObject({
      registrations: 1,
      websiteRegistrations: 1,
      attendees: 1,
      costPerAttendee: 60,
    });
  });

  it('matches by e-mail before UTM, and a person who filled two ads’ forms to their first lead', () => {
    const twice = [lead('x2', 'dear', 'g@example.com', 2_000), lead('x1', 'cheap', 'g@example.com', 1_000)];
    const result = joinOutcomes(twice, [participant('g@example.com', true, 1, { utm_content: 'dear' })]);
    expect(result.ads.find((a) => a.adId === 'cheap')).toMatchObject({ registrations: 1, attendees: 1 });
    expect(result.ads.find((a) => a.adId === 'dear')).toMatchObject({ registrations: 0, attendees: 0, leads: 1 });
  });

  it('counts apart a participant without a lead or a UTM naming one of the ads', () => {
    const result = joinOutcomes(
      leads,
      [
        participant('stranger@example.com', true),
        participant('other@example.com', true, 1, { utm_content: 'another-campaigns-ad' }),
        { dateId: 1, emailHash: null, attended: false },
      ],
      spend,
    );
    expect(result.unmatched).toBe(3);
    expect(result.ads.every((a) => a.registrations === 0)).toBe(true);
  });

  it('has no rate or cost without registrations or attendees', () => {
    const result = joinOutcomes(leads, [participant('a@example.com', false)], new Map([['cheap', 40]]));
    expect(result.ads.find((a) => a.adId === 'cheap')).toMatchObject({ showUpRate: 0, costPerAttendee: null });
    expect(result.ads.find((a) => a.adId === 'dear')).toMatchObject({
      showUpRate: null,
      spend: null,
      costPerAttendee: null,
      costPerRegistration: null,
    });
  });
});

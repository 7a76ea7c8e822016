import { describe, expect, it } from 'vitest';
import type { SubscriptionSchedule } from '#contracts/subscriptions.ts';
import { nextDeliveryAfter } from '#lambdas/shared/subscriptions/schedule.ts';

/** The next delivery of `schedule` after the instant `after`, as an ISO instant. */
const next = (schedule: Partial<SubscriptionSchedule>, after: string): string =>
  nextDeliveryAfter(
    { frequency: 'DAILY', weekday: null, dayOfMonth: null, time: '08:00', timeZone: 'Europe/London', ...schedule },
    new Date(after),
  ).toISOString();

describe('nextDeliveryAfter: daily', () => {
  it('is today at the time until the time, and tomorrow from the very instant of the time', () => {
    expect(next({}, '2026-01-15T07:59:59.999Z')).toBe('2026-01-15T08:00:00.000Z');
    expect(next({}, '2026-01-15T08:00:00.000Z')).toBe('2026-01-16T08:00:00.000Z');
    expect(next({}, '2026-01-15T08:00:00.001Z')).toBe('2026-01-16T08:00:00.000Z');
  });

  it("keeps the zone's summer time: 08:00 in London in July is 07:00 UTC", () => {
    expect(next({}, '2026-07-01T06:59:59.999Z')).toBe('2026-07-01T07:00:00.000Z');
    expect(next({}, '2026-07-01T07:00:00.000Z')).toBe('2026-07-02T07:00:00.000Z');
  });

  it('rolls over the end of a month and of a year', () => {
    expect(next({}, '2026-01-31T09:00:00.000Z')).toBe('2026-02-01T08:00:00.000Z');
    expect(next({ time: '23:45' }, '2026-12-31T23:45:00.000Z')).toBe('2027-01-01T23:45:00.000Z');
  });

  it('counts the day in a zone ahead of UTC (Asia/Tokyo, UTC+9): 08:00 there is 23:00 UTC the day before', () => {
    const tokyo = { timeZone: 'Asia/Tokyo' };
    expect(next(tokyo, '2026-05-10T12:00:00.000Z')).toBe('2026-05-10T23:00:00.000Z');
    expect(next(tokyo, '2026-05-10T22:59:59.999Z')).toBe('2026-05-10T23:00:00.000Z');
    expect(next(tokyo, '2026-05-10T23:00:00.000Z')).toBe('2026-05-11T23:00:00.000Z');
    // 00:00 in Tokyo on 1 January is still 31 December in UTC.
    expect(next({ ...tokyo, time: '00:00' }, '2026-12-31T14:59:59.999Z')).toBe('2026-12-31T15:00:00.000Z');
  });
});

describe('nextDeliveryAfter: daylight saving time', () => {
  it('Europe/London, spring forward (29 March 2026, 01:00 GMT becomes 02:00 BST)', () => {
    // The day before is on GMT, the day itself on BST.
    expect(next({}, '2026-03-28T08:00:00.000Z')).toBe('2026-03-29T07:00:00.000Z');
    // 01:30 does not exist that night: it moves forward by the hour the clocks skip, to 02:30 BST.
    expect(next({ time: '01:30' }, '2026-03-28T12:00:00.000Z')).toBe('2026-03-29T01:30:00.000Z');
    expect(next({ time: '01:30' }, '2026-03-29T01:30:00.000Z')).toBe('2026-03-30T00:30:00.000Z');
  });

  it('Europe/London, fall back (25 October 2026, 02:00 BST becomes 01:00 GMT)', () => {
    expect(next({}, '2026-10-24T08:00:00.000Z')).toBe('2026-10-25T08:00:00.000Z');
    // 01:30 happens twice that night: the first one (BST) is the delivery, and only once.
    expect(next({ time: '01:30' }, '2026-10-24T12:00:00.000Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next({ time: '01:30' }, '2026-10-25T00:30:00.000Z')).toBe('2026-10-26T01:30:00.000Z');
  });

  it('America/New_York, spring forward (8 March 2026, 02:00 EST becomes 03:00 EDT)', () => {
    const newYork = { timeZone: 'America/New_York' };
    expect(next({ ...newYork, time: '09:00' }, '2026-03-07T15:00:00.000Z')).toBe('2026-03-08T13:00:00.000Z');
    // 02:30 does not exist that night: 03:30 EDT.
    expect(next({ ...newYork, time: '02:30' }, '2026-03-07T12:00:00.000Z')).toBe('2026-03-08T07:30:00.000Z');
    expect(
      next({ ...newYork, frequency: 'WEEKLY', weekday: 'SUNDAY', time: '09:00' }, '2026-03-01T15:00:00.000Z'),
    ).toBe('2026-03-08T13:00:00.000Z');
  });

  it('America/New_York, fall back (1 November 2026, 02:00 EDT becomes 01:00 EST)', () => {
    const newYork = { timeZone: 'America/New_York' };
    expect(next({ ...newYork, time: '09:00' }, '2026-10-31T14:00:00.000Z')).toBe('2026-11-01T14:00:00.000Z');
    expect(next({ ...newYork, time: '01:30' }, '2026-10-31T12:00:00.000Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(next({ ...newYork, time: '01:30' }, '2026-11-01T05:30:00.000Z')).toBe('2026-11-02T06:30:00.000Z');
  });
});

describe('nextDeliveryAfter: weekly', () => {
  const monday = { frequency: 'WEEKLY', weekday: 'MONDAY' } as const;

  it('is the next such weekday, the same day until the time and a week on from the time', () => {
    // Thursday 15 January 2026.
    expect(next(monday, '2026-01-15T10:00:00.000Z')).toBe('2026-01-19T08:00:00.000Z');
    expect(next(monday, '2026-01-19T07:59:59.999Z')).toBe('2026-01-19T08:00:00.000Z');
    expect(next(monday, '2026-01-19T08:00:00.000Z')).toBe('2026-01-26T08:00:00.000Z');
  });

  it("takes the weekday in the subscription's zone, not in UTC", () => {
    // Sunday 23:30 UTC is already Monday 08:30 in Tokyo: past that Monday's 08:00.
    expect(next({ ...monday, timeZone: 'Asia/Tokyo' }, '2026-01-18T23:30:00.000Z')).toBe('2026-01-25T23:00:00.000Z');
    expect(next({ ...monday, timeZone: 'Asia/Tokyo' }, '2026-01-18T22:00:00.000Z')).toBe('2026-01-18T23:00:00.000Z');
  });

  it('rolls over the end of a month', () => {
    expect(next({ ...monday, weekday: 'SUNDAY' }, '2026-01-30T12:00:00.000Z')).toBe('2026-02-01T08:00:00.000Z');
  });
});

describe('nextDeliveryAfter: monthly', () => {
  const monthly = (dayOfMonth: number) => ({ frequency: 'MONTHLY', dayOfMonth }) as const;

  it('is this month until the time on the day, then the next month', () => {
    expect(next(monthly(28), '2026-01-28T07:59:59.999Z')).toBe('2026-01-28T08:00:00.000Z');
    expect(next(monthly(28), '2026-01-28T08:00:00.000Z')).toBe('2026-02-28T08:00:00.000Z');
    expect(next(monthly(15), '2026-01-20T00:00:00.000Z')).toBe('2026-02-15T08:00:00.000Z');
  });

  it('rolls over the year, and from a 31st to a short month', () => {
    expect(next(monthly(15), '2026-12-20T00:00:00.000Z')).toBe('2027-01-15T08:00:00.000Z');
    expect(next(monthly(28), '2026-01-31T12:00:00.000Z')).toBe('2026-02-28T08:00:00.000Z');
  });

  it("takes the month in the subscription's zone and its offset on the day", () => {
    const tokyo = { ...monthly(1), timeZone: 'Asia/Tokyo', time: '00:00' };
    // 1 February 00:00 in Tokyo is 31 January 15:00 UTC.
    expect(next(tokyo, '2026-01-31T14:59:59.999Z')).toBe('2026-01-31T15:00:00.000Z');
    expect(next(tokyo, '2026-01-31T15:00:00.000Z')).toBe('2026-02-28T15:00:00.000Z');
    // From March (EST) to April (EDT) in New York.
    expect(next({ ...monthly(1), timeZone: 'America/New_York' }, '2026-03-02T00:00:00.000Z')).toBe(
      '2026-04-01T12:00:00.000Z',
    );
  });
});

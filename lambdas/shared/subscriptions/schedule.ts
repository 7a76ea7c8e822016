import { DateTime } from 'luxon';
import { WEEKDAYS, type SubscriptionSchedule } from '#contracts/subscriptions.ts';

/**
 * The first delivery time of `schedule` strictly after `after`, as an instant: the schedule's
 * local time on its day in its time zone (luxon keeps the zone's daylight-saving rules). A local
 * time that a spring-forward skips moves forward by the gap (01:30 in a 01:00-02:00 gap is
 * delivered at 02:30); a time a fall-back repeats is delivered once, at its first occurrence.
 */
export function nextDeliveryAfter(schedule: SubscriptionSchedule, after: Date): Date {
  const [hour, minute] = schedule.time.split(':').map(Number) as [number, number];
  const now = DateTime.fromJSDate(after, { zone: schedule.timeZone });
  if (!now.isValid) throw new Error(`Unknown time zone ${schedule.timeZone}`);
  const at = (day: DateTime) => day.set({ hour, minute, second: 0, millisecond: 0 });
  const today = now.startOf('day');
  switch (schedule.frequency) {
    case 'DAILY': {
      const candidate = at(today);
      return (candidate > now ? candidate : at(today.plus({ days: 1 }))).toJSDate();
    }
    case 'WEEKLY': {
      const weekday = WEEKDAYS.indexOf(schedule.weekday!) + 1;
      const ahead = (weekday - today.weekday + 7) % 7;
      const candidate = at(today.plus({ days: ahead }));
      return (candidate > now ? candidate : at(today.plus({ days: ahead + 7 }))).toJSDate();
    }
    case 'MONTHLY': {
      const day = schedule.dayOfMonth!;
      const candidate = at(today.set({ day }));
      return (candidate > now ? candidate : at(today.plus({ months: 1 }).set({ day }))).toJSDate();
    }
  }
}

import { addDays, canonicalTimeZone, dayIn, dayRange, isTimeZone, offsetMs, startOfDay } from './time.js';

describe('calendar days in a zone', () => {
  it('finds the day an instant falls on in the zone, not in UTC', () => {
    const lateUtc = new Date('2026-11-28T23:30:00Z');
    expect(dayIn(lateUtc, 'UTC')).toBe('2026-11-28');
    expect(dayIn(lateUtc, 'Europe/Madrid')).toBe('2026-11-29');
    expect(dayIn(lateUtc, 'America/Los_Angeles')).toBe('2026-11-28');
    expect(dayIn(new Date('2026-11-28T16:00:00Z'), 'Asia/Tokyo')).toBe('2026-11-29');
  });

  it('starts a day at local midnight, across DST changes', () => {
    expect(startOfDay('2026-11-28', 'Europe/Madrid').toISOString()).toBe('2026-11-27T23:00:00.000Z');
    expect(startOfDay('2026-07-01', 'Europe/Madrid').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    // The day Madrid moves its clocks back lasts 25 hours.
    const { start, end } = dayRange('2026-10-25', 'Europe/Madrid');
    expect(end.getTime() - start.getTime()).toBe(25 * 3600_000);
    expect(offsetMs(new Date('2026-11-28T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * 3600_000);
  });

  it('adds days across months and years, and knows real zones from made-up ones', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isTimeZone('Europe/Madrid')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('names every zone the one way the runtime does, whatever the spelling', () => {
    expect(canonicalTimeZone('europe/MADRID')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('eUrOpE/mAdRiD')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('US/Pacific')).toBe('America/Los_Angeles');
    expect(canonicalTimeZone('asia/calcutta')).toBe(canonicalTimeZone('Asia/Calcutta'));
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
// The shared vectors: the Rust side (app/src/travel/rules.rs) checks the same file.
import vectors from '../../../app/src/travel/vectors.json';
import type { ParticipantProfile } from '../generated/ParticipantProfile';
import type { ParticipantType } from '../generated/ParticipantType';
import { ageCategory, checkoutDate, isSelectableDay, parseIsoDate, type CalendarDays } from './rules';

describe('isSelectableDay (shared vectors)', () => {
  const days: CalendarDays = vectors.calendarSelectable.days;

  it('has vectors', () => {
    expect(vectors.calendarSelectable.cases.length).toBeGreaterThan(0);
  });

  it.each(vectors.calendarSelectable.cases)('$date → $expected', ({ date, expected }) => {
    expect(isSelectableDay(days, date)).toBe(expected);
  });

  it('ignores inherited keys', () => {
    expect(isSelectableDay(days, 'constructor')).toBe(false);
    expect(isSelectableDay({}, '2027-03-06')).toBe(false);
  });
});

describe('ageCategory (shared vectors)', () => {
  const profiles = vectors.ageCategory.profiles as ParticipantProfile[];

  it('has vectors', () => {
    expect(vectors.ageCategory.cases.length).toBeGreaterThan(0);
  });

  it.each(vectors.ageCategory.cases)('born $birthday, travelling $travelDate → $expected', (c) => {
    expect(ageCategory(c.birthday, c.travelDate, profiles)).toBe(c.expected as ParticipantType | null);
  });

  it('is null for an invalid travel date or without profiles', () => {
    expect(ageCategory('2020-01-01', '2027-02-29', profiles)).toBeNull();
    expect(ageCategory('2020-01-01', '2027-03-10', [])).toBeNull();
  });
});

describe('checkoutDate (shared vectors)', () => {
  it('has vectors', () => {
    expect(vectors.checkoutDate.cases.length).toBeGreaterThan(0);
  });

  it.each(vectors.checkoutDate.cases)('$checkin + $days days → $expected', ({ checkin, days, expected }) => {
    expect(checkoutDate(checkin, days)).toBe(expected);
  });

  it('is null for an invalid date or length', () => {
    expect(checkoutDate('2027-02-30', 3)).toBeNull();
    expect(checkoutDate('2027-03-06', 0)).toBeNull();
    expect(checkoutDate('2027-03-06', 1.5)).toBeNull();
  });
});

describe('parseIsoDate', () => {
  it('accepts real days only, strictly as YYYY-MM-DD', () => {
    expect(parseIsoDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseIsoDate('2027-02-29')).toBeNull();
    expect(parseIsoDate('2027-13-01')).toBeNull();
    expect(parseIsoDate('2027-00-10')).toBeNull();
    expect(parseIsoDate('2027-3-6')).toBeNull();
    expect(parseIsoDate(' 2027-03-06')).toBeNull();
  });
});

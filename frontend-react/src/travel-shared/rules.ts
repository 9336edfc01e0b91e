// Travel rules shared with Rust (app/src/travel/rules.rs). Both sides test against the same
// vectors (app/src/travel/vectors.json): change a rule here and there, or one side fails.
import type { CalendarDay } from '../generated/CalendarDay';
import type { ParticipantProfile } from '../generated/ParticipantProfile';
import type { ParticipantType } from '../generated/ParticipantType';

/** The calendar days of a configuration, keyed by `YYYY-MM-DD` (a BTreeMap on the Rust side). */
export type CalendarDays = Record<string, CalendarDay>;

export interface IsoDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A UTC `Date` at midnight of that day (years below 100 included). */
function utc(year: number, month: number, day: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d;
}

/** Parses a strict `YYYY-MM-DD` that names a real calendar day; anything else is null. */
export function parseIsoDate(value: string): IsoDate | null {
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return null;
  if (day > utc(year, month + 1, 0).getUTCDate()) return null;
  return { year, month, day };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatIsoDate({ year, month, day }: IsoDate): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A day can be chosen when it is a departure day that is not out of stock. */
export function isSelectableDay(days: CalendarDays, date: string): boolean {
  if (!parseIsoDate(date) || !Object.hasOwn(days, date)) return false;
  const day = days[date];
  return day !== undefined && !day.isOutOfStock;
}

/** Age in full years on `on`, or null when born after it. */
export function ageOn(birth: IsoDate, on: IsoDate): number | null {
  let age = on.year - birth.year;
  if (on.month < birth.month || (on.month === birth.month && on.day < birth.day)) age -= 1;
  return age < 0 ? null : age;
}

/**
 * The participant type a traveller born on `birthday` belongs to on `travelDate`: the first
 * profile whose age window (inclusive) holds the age in full years. Null when a date is
 * invalid, the traveller is born after the travel date, or no profile matches.
 */
export function ageCategory(
  birthday: string,
  travelDate: string,
  profiles: readonly ParticipantProfile[],
): ParticipantType | null {
  const birth = parseIsoDate(birthday);
  const travel = parseIsoDate(travelDate);
  if (!birth || !travel) return null;
  const age = ageOn(birth, travel);
  if (age === null) return null;
  return profiles.find((p) => p.minAge <= age && age <= p.maxAge)?.type ?? null;
}

/**
 * The last day of a stay of `days` days starting on `checkin` (checkin + days - 1), as
 * `YYYY-MM-DD`. Computed in UTC, so no time zone shifts it. Null for an invalid date or a
 * length below one day.
 */
export function checkoutDate(checkin: string, days: number): string | null {
  const start = parseIsoDate(checkin);
  if (!start || !Number.isInteger(days) || days < 1) return null;
  const end = utc(start.year, start.month, start.day + days - 1);
  return formatIsoDate({ year: end.getUTCFullYear(), month: end.getUTCMonth() + 1, day: end.getUTCDate() });
}

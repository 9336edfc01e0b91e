// The header cache's staleness (spec 000 §9): a rule that must run in the browser, where
// the cache lives. Twin of app/src/shell/rules.rs `is_stale`; both are checked against
// app/tests/vectors/header_cache.json (docs/frontend.md lists the twins).

/** What a cached header is for, and when it was saved (ms, the site's local time). */
export interface CacheKey {
  siteId: number;
  memberId: number | null;
  path: string;
  date: number;
}

const MAX_AGE = 15 * 60 * 1000;
/** The sale hours: a cache made before one of them is stale after it. */
const HOURS = [7, 9, 12, 19];
const DAY = 864e5;
const HOUR = 36e5;

export function isStale(saved: CacheKey, now: CacheKey): boolean {
  const age = now.date - saved.date;
  if (!(age >= 0 && age < MAX_AGE)) return true;
  if (saved.siteId !== now.siteId || (saved.memberId ?? null) !== (now.memberId ?? null) || saved.path !== now.path) return true;
  const day = Math.floor(now.date / DAY) * DAY;
  return HOURS.some((h) => [day + h * HOUR, day - DAY + h * HOUR].some((e) => saved.date < e && e <= now.date));
}

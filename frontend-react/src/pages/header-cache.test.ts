import { describe, expect, it } from 'vitest';
// The shared vectors: app/src/shell/rules.rs checks the same file.
import vectors from '../../../app/tests/vectors/header_cache.json';
import { isStale, type CacheKey } from './header-cache';

describe('header cache staleness (twin of shell::rules::is_stale)', () => {
  it('has the shared cases', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(15);
  });
  for (const c of vectors.cases) {
    it(c.why, () => {
      expect(isStale(c.saved as CacheKey, c.now as CacheKey)).toBe(c.stale);
    });
  }
  it('every sale hour is an edge and nothing else is', () => {
    const day = 20416 * 864e5;
    const key = (date: number) => ({ siteId: 1, memberId: null, path: '/', date });
    for (let hour = 0; hour < 24; hour++) {
      const edge = day + hour * 36e5;
      expect(isStale(key(edge - 6e4), key(edge + 6e4))).toBe([7, 9, 12, 19].includes(hour));
    }
  });
});

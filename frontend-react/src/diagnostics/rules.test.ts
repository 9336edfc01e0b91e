import { describe, expect, it } from 'vitest';
// The shared vectors: app/tests/rule_vectors.rs checks the Rust rules against the same file.
import vectors from '../../../app/tests/vectors/diagnostics.json';
import { BREADCRUMBS_MAX, isKind, isLevel, QUEUE_FLUSH_MS, QUEUE_MAX, rate } from './rules';

describe('diagnostics rules (shared vectors)', () => {
  it('has the limits of the Rust rules', () => {
    expect([QUEUE_MAX, QUEUE_FLUSH_MS, BREADCRUMBS_MAX]).toEqual([
      vectors.limits.queueMax,
      vectors.limits.queueFlushMs,
      vectors.limits.breadcrumbsMax,
    ]);
  });

  it.each(vectors.ratings.map((c) => [`${c.name} ${c.value}`, c] as const))('rates %s', (_n, c) => {
    expect(rate(c.name, c.value)).toBe(c.expected);
  });

  it('knows the levels and kinds exactly', () => {
    for (const l of vectors.levels.valid) expect(isLevel(l)).toBe(true);
    for (const l of vectors.levels.invalid) expect(isLevel(l)).toBe(false);
    for (const k of vectors.kinds.valid) expect(isKind(k)).toBe(true);
    for (const k of vectors.kinds.invalid) expect(isKind(k)).toBe(false);
  });
});

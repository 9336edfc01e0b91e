import { describe, expect, it } from 'vitest';
// The shared vectors: app/tests/js_vectors.rs checks the Rust rules against the same file.
import vectors from '../../../app/tests/vectors/help.json';
import { loadPageScript } from './load';

type Rules = {
  reduce: (s: unknown, a: unknown) => Record<string, unknown>;
  check: (s: unknown, rule: unknown) => string[];
  fieldValues: (s: unknown) => Record<string, string>;
};
const rules = loadPageScript<Rules>('help.js', '__rosaceHelpRules');

/** `base` with the case's fields over it; `{repeat, times}` is a long text. */
function state(over: Record<string, unknown>): Record<string, unknown> {
  const s: Record<string, unknown> = { ...vectors.base };
  for (const [k, v] of Object.entries(over)) {
    const long = v as { repeat?: string; times?: number } | null;
    s[k] = long && typeof long === 'object' && long.repeat !== undefined ? long.repeat.repeat(long.times!) : v;
  }
  return s;
}

describe('help.js reset rules (shared vectors)', () => {
  it.each(vectors.reduce.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const end = (c.actions as unknown[]).reduce((s: unknown, a) => rules.reduce(s, a), state(c.state));
    expect(end).toEqual(state(c.expected));
  });
});

describe('help.js fields follow the state alone (shared vectors)', () => {
  // The page's selects show what rules::reduce left, with no fallback to the page's order.
  const withFields = vectors.reduce.filter((c) => 'fields' in c) as unknown as {
    name: string; state: Record<string, unknown>; actions: unknown[]; fields: Record<string, string>;
  }[];
  it('has cases', () => expect(withFields.length).toBeGreaterThan(0));
  it.each(withFields.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const end = c.actions.reduce((s: unknown, a) => rules.reduce(s, a), state(c.state));
    expect(rules.fieldValues(end)).toEqual(c.fields);
  });
});

describe('help.js checks before a send (shared vectors)', () => {
  it.each(vectors.check.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(rules.check(state(c.state as Record<string, unknown>), c.rule)).toEqual(c.expected);
  });
});

import { describe, expect, it } from 'vitest';
// The shared vectors: app/tests/js_vectors.rs checks the Rust rules against the same file.
import vectors from '../../../app/tests/vectors/aftersale.json';
import { loadPageScript } from './load';

type Rules = {
  reduceReturnsForm: (s: unknown, a: unknown) => unknown;
  succeeded: (s: unknown) => boolean;
  errorKey: (c: string) => string;
  answerAction: (status: number, code: string | null) => unknown;
  reduceHelp: (s: unknown, a: unknown) => unknown;
};
const rules = loadPageScript<Rules>('aftersale.js', '__rosaceAftersaleRules');

describe('aftersale.js returns form (shared vectors)', () => {
  it.each(vectors.returnsForm.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const next = c.action ? rules.reduceReturnsForm(c.state, c.action) : c.state;
    expect(next).toEqual(c.expected);
    expect(rules.succeeded(next)).toBe(c.succeeded);
  });

  it.each(vectors.answers.map((c) => [c.status, c] as const))('answer %s', (_s, c) => {
    expect(rules.answerAction(c.status, c.errorCode)).toEqual(c.expected);
  });

  it.each(vectors.errorKeys)('error code %j', (code, key) => {
    expect(rules.errorKey(code)).toBe(key);
  });
});

describe('aftersale.js marketplace help form (shared vectors)', () => {
  it.each(vectors.marketplaceHelp.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const end = c.actions.reduce((s: unknown, a: unknown) => rules.reduceHelp(s, a), c.state);
    expect(end).toEqual(c.expected);
  });
});

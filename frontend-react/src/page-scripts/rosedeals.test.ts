import { describe, expect, it } from 'vitest';
// The shared vectors: app/tests/js_vectors.rs checks the Rust rules against the same file.
import vectors from '../../../app/tests/vectors/rosedeals.json';
import { loadPageScript } from './load';

type Rules = {
  reduceRefund: (s: unknown, a: unknown) => unknown;
  refreshAfter: (a: unknown) => unknown;
  reduceContact: (s: unknown, a: unknown) => unknown;
  errorKey: (body: unknown) => string;
  checkContact: (m: unknown) => string | null;
  nextPage: (a: unknown, id: number) => string | null;
};
const rules = loadPageScript<Rules>('rosedeals.js', '__rosaceDealsRules');

describe('rosedeals.js refund and retry states (shared vectors)', () => {
  it.each(vectors.refund.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(rules.reduceRefund(c.state, c.action)).toEqual(c.expected);
    const refresh = rules.refreshAfter(c.action);
    expect(refresh !== null).toBe(c.refresh);
    if (refresh) expect(refresh).toEqual([['current', 1], ['archived', 1]]);
  });
});

describe('rosedeals.js error keys and the contact check (shared vectors)', () => {
  it.each(vectors.errorKeys.map((c) => [JSON.stringify(c.body), c] as const))('%s', (_b, c) => {
    expect(rules.errorKey(c.body)).toBe(c.expected);
  });

  it.each(vectors.contact.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(rules.checkContact(c.message)).toBe(c.expected);
  });
});

describe('rosedeals.js contact send states (shared vectors)', () => {
  it.each(vectors.contactSend.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(rules.reduceContact(c.state, c.action)).toEqual(c.expected);
  });
});

describe('rosedeals.js after a refund or retry', () => {
  // Both lists reload, page 1: the next page is rendered by the server from one
  // concurrent fetch of both (the refund's result, or the ongoing deals).
  it.each(vectors.refund.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const next = rules.nextPage(c.action, 42);
    expect(next !== null).toBe(c.refresh);
    if (c.action.type === 'refundSuccess') expect(next).toBe('/rosedeals/refund-result?basketId=42');
    if (c.action.type === 'retrySuccess') expect(next).toBe('/rosedeals/ongoing?page=1&notice=rosedeals.retry.done');
  });
});

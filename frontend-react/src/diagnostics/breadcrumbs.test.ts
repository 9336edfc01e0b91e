import { describe, expect, it } from 'vitest';
import { createBreadcrumbs, CRUMB_TEXT_MAX, describeElement } from './breadcrumbs';

describe('breadcrumbs', () => {
  it('keeps the last 50, oldest first', () => {
    const b = createBreadcrumbs();
    for (let i = 0; i < 120; i++) b.add('click', `c${i}`);
    const list = b.list();
    expect(list).toHaveLength(50);
    expect(list[0].message).toBe('c70');
    expect(list[49].message).toBe('c119');
  });

  it('cuts long messages and stamps each crumb', () => {
    const b = createBreadcrumbs(50, () => new Date('2026-11-24T06:00:00Z'));
    b.add('fetch', 'x'.repeat(500));
    expect(b.list()[0]).toEqual({ category: 'fetch', message: 'x'.repeat(CRUMB_TEXT_MAX), timestamp: '2026-11-24T06:00:00.000Z' });
  });

  it('describes a click by element, never by its text', () => {
    document.body.innerHTML = '<button id="buy" class="button button--primary" data-testid="add"><span>Secret text</span></button>';
    const span = document.querySelector('span');
    expect(describeElement(span)).toBe('button#buy.button.button--primary[data-testid=add]');
  });
});

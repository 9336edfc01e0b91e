// The trail an error report carries (spec 000 §9: the last 50): navigations, clicks and
// failed fetches, oldest first.
import { BREADCRUMBS_MAX } from './rules';

export type Breadcrumb = {
  category: 'navigation' | 'click' | 'fetch';
  message: string;
  timestamp: string;
};

/** Longest breadcrumb message kept. */
export const CRUMB_TEXT_MAX = 120;

export type Breadcrumbs = {
  add: (category: Breadcrumb['category'], message: string) => void;
  list: () => Breadcrumb[];
};

export function createBreadcrumbs(max = BREADCRUMBS_MAX, now: () => Date = () => new Date()): Breadcrumbs {
  const crumbs: Breadcrumb[] = [];
  return {
    add(category, message) {
      crumbs.push({ category, message: message.slice(0, CRUMB_TEXT_MAX), timestamp: now().toISOString() });
      if (crumbs.length > max) crumbs.splice(0, crumbs.length - max);
    },
    list: () => crumbs.slice(),
  };
}

/** A short, text-free description of a clicked element: `button#id.class[data-testid=x]`
 * (no text content, no values: nothing the visitor typed). */
export function describeElement(el: Element | null): string {
  if (!el) return 'unknown';
  const target = el.closest('a, button, [role="button"], input, select, textarea, summary, label') ?? el;
  let s = target.tagName.toLowerCase();
  if (target.id) s += `#${target.id}`;
  const classes = Array.from(target.classList).slice(0, 3);
  if (classes.length) s += `.${classes.join('.')}`;
  const testId = target.getAttribute('data-testid');
  if (testId) s += `[data-testid=${testId}]`;
  return s.slice(0, CRUMB_TEXT_MAX);
}

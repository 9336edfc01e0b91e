import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect } from './fixtures';

// WCAG 2.0/2.1/2.2, levels A and AA.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/// No axe violation on the page as it is now (`path` given: after opening it), once its
/// islands are interactive. Flows call it at the states a page only reaches by using it
/// (a popin, a filled cart, a checkout form).
/// Pages without islands (the back office) pass `{ islands: false }`.
export async function expectNoViolations(page: Page, path?: string, { islands = true } = {}) {
  if (path !== undefined) await page.goto(path);
  if (islands) await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  else await page.waitForLoadState('load');
  // Contrast is judged on the settled page, not half-way through a popin's fade-in.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`,
  );
  expect(found, `axe on ${path ?? page.url()}`).toEqual([]);
  // WCAG 1.4.10 reflow, which axe does not check: nothing wider than a phone's screen (a
  // long email once pushed the account page sideways and hid the consent button).
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return document.documentElement.scrollWidth > width
      ? [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > width + 1)
          .slice(0, 3)
          .map((e) => e.outerHTML.slice(0, 80))
      : [];
  });
  expect(wide, `horizontal scroll on ${path ?? page.url()}`).toEqual([]);
}

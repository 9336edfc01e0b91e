import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect } from './fixtures';

// WCAG 2.0/2.1/2.2, levels A and AA.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/// No axe violation on the page as it is now (`path` given: after opening it), once its
/// islands are interactive. Flows call it at the states a page only reaches by using it
/// (a popin, a filled cart, a checkout form).
export async function expectNoViolations(page: Page, path?: string) {
  if (path !== undefined) await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // Contrast is judged on the settled page, not half-way through a popin's fade-in.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`,
  );
  expect(found, `axe on ${path ?? page.url()}`).toEqual([]);
}

import axe from 'axe-core';
import { type Page } from '@playwright/test';
import { expect } from './fixtures';

// WCAG 2.0/2.1/2.2, levels A and AA.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/// The axe violations of the page as it is now, one line each (rule, count, first targets).
/// axe runs in the page itself: injected once per document, and only the violations come
/// back. @axe-core/playwright's default run opened a blank page per scan to merge frame
/// results and sent back every passed node too: 2.5–3 s of the browser's and the runner's
/// CPU a scan against about 1 s here, with the same findings (the shop has no frames;
/// measured on the home and search pages). The suite scans a few hundred times a project.
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const { violations } = await run(document, { runOnly: { type: 'tag', values: tags } });
    return violations.map(
      (v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`,
    );
  }, TAGS);
}

/// No axe violation on the page as it is now (`path` given: after opening it), once its
/// islands are interactive. Flows call it at the states a page only reaches by using it
/// (a popin, a filled cart, a checkout form).
/// Pages without islands (the back office) pass `{ islands: false }`.
export async function expectNoViolations(page: Page, path?: string, { islands = true } = {}) {
  if (path !== undefined) await page.goto(path);
  if (islands) await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  else await page.waitForLoadState('load');
  // Contrast is judged on the settled page, not half-way through a popin's fade-in. An
  // animation cancelled meanwhile (a transition the page replaced) rejects its `finished`
  // with AbortError: it is settled all the same.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  expect(await axeViolations(page), `axe on ${path ?? page.url()}`).toEqual([]);
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

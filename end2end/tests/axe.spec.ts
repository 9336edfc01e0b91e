import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';

// Every page kind, on both projects (desktop and Pixel 7), signed out and signed in: no
// WCAG 2.0/2.1/2.2 A or AA violation, once the page's islands are interactive.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

async function expectNoViolations(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(found, `axe on ${path}`).toEqual([]);
}

test('visitor page kinds have no accessibility violation', async ({ page }) => {
  await expectNoViolations(page, '/');
  const sale = await page.getByTestId('sale-grid').locator('a').first().getAttribute('href');
  await expectNoViolations(page, sale!);
  await expectNoViolations(page, `${sale!}?sort=price_asc`);
  const product = await page.getByTestId('items-grid').locator('[data-item-id] a').first().getAttribute('href');
  await expectNoViolations(page, product!);
  await expectNoViolations(page, '/find');
  await expectNoViolations(page, '/find?q=robe');
  await expectNoViolations(page, '/gr/authentication');
  await expectNoViolations(page, '/registration/privacypolicy');
  await expectNoViolations(page, '/nowhere');
});

test('member page kinds have no accessibility violation', async ({ page }, info) => {
  await signInAsDemo(page, info.project.name === 'desktop' ? 3 : 71);
  await expectNoViolations(page, '/');
  const sale = await page.getByTestId('sale-grid').locator('a').first().getAttribute('href');
  await expectNoViolations(page, sale!);
  await expectNoViolations(page, '/cart');
  await expectNoViolations(page, '/my-orders');
  await expectNoViolations(page, '/postsales/favourites');
  await expectNoViolations(page, '/gr/myaccount');
});

test('the consent banner has no accessibility violation', async ({ browser, baseURL }) => {
  // A first visit: no consent answered yet, so the banner shows.
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByTestId('consent-banner')).toBeVisible();
  await expectNoViolations(page, '/');
  await context.close();
});

import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';

// The SEO variants "sales" and "navigation" (spec 000 §1): open-door pages a visitor and a
// crawler get in full, listed in the sitemap.

test('a visitor sees every live sale on /sales and reaches a sale\'s open-door catalog from it', async ({ page, request }, info) => {
  const [site, title] = info.project.name === 'desktop' ? [1, 'Toutes les ventes en cours'] : [66, 'Todas las ventas en curso'];
  const res = await page.goto(`/sales?site=${site}`);
  expect(res!.status()).toBe(200);
  await expect(page.locator('h1')).toHaveText(title);
  const tiles = page.getByTestId('sale-grid').locator('[data-sale-id]');
  const count = await tiles.count();
  expect(count).toBeGreaterThan(3);
  await expect(page.getByTestId('sales-count')).toContainText(String(count));
  await expectNoViolations(page);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/sales(\?site=\d+)?$/);
  const first = tiles.first().locator('a');
  await expect(first).toHaveAttribute('href', /^\/c\/[^/]+\/\d+\/\d+$/);
  await first.click();
  await expect(page).toHaveURL(/\/c\/[^/]+\/\d+\/\d+$/);
  await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();

  const sitemap = await (await request.get(`/sitemap.xml?site=${site}`)).text();
  // (Locally every site is on one host: its addresses carry ?site=.)
  expect(sitemap).toMatch(/\/sales(\?site=\d+)?<\/loc>/);
  expect(sitemap).toMatch(/\/navigation(\?site=\d+)?<\/loc>/);
});

test('a visitor browses the categories on /navigation, each with its universes and sales', async ({ page }, info) => {
  const [site, title] = info.project.name === 'desktop' ? [2, 'Alle Kategorien'] : [71, 'Al onze categorieën'];
  const res = await page.goto(`/navigation?site=${site}`);
  expect(res!.status()).toBe(200);
  await expect(page.locator('h1')).toHaveText(title);
  const categories = page.getByTestId('navigation-category');
  expect(await categories.count()).toBeGreaterThan(0);
  // Every link of the page leads to a page that answers.
  const hrefs = await page.locator('.open-door a[href]').evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
  expect(hrefs.length).toBeGreaterThan(await categories.count());
  for (const href of [...new Set(hrefs)].slice(0, 12)) {
    const answer = await page.request.get(href, { maxRedirects: 0 });
    expect(answer.status(), href).toBeLessThan(400);
  }
  await expectNoViolations(page);
  await page.getByTestId('navigation-all-sales').click();
  await expect(page).toHaveURL(/\/sales$/);
  await expect(page.getByTestId('sale-grid')).toBeVisible();
});

import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';

/// The brand of the site's live sales with the most products (over one page of 48).
async function bigBrand(request: import('@playwright/test').APIRequestContext, site: number) {
  const res = await request.get(`/api/catalog/v1/brands?siteId=${site}`, { headers: { 'x-vp-siteid': String(site) } });
  expect(res.ok()).toBeTruthy();
  const brands: { id: number; items: number }[] = await res.json();
  const biggest = brands.reduce((a, b) => (b.items > a.items ? b : a));
  expect(biggest.items, 'a demo brand with more than one page of products').toBeGreaterThan(48);
  return biggest;
}

test("a brand's page appends its next products with \"load more\", and pages with links without scripts", async ({ page, request, browser }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 66;
  const brand = await bigBrand(request, site);
  await page.goto(`/b/${brand.id}?site=${site}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const tiles = page.getByTestId('items-grid').locator('[data-item-id]');
  await expect(tiles).toHaveCount(48);
  const more = page.getByTestId('load-more');
  await expect(more).toBeVisible();
  await more.click();
  const second = Math.min(brand.items, 96);
  await expect(tiles).toHaveCount(second);
  // The same address: the tiles were appended, not a new page.
  expect(new URL(page.url()).pathname).toBe(`/b/${brand.id}`);
  // No tile twice.
  const ids = await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
  expect(new Set(ids).size).toBe(ids.length);
  if (brand.items <= 96) await expect(more).toHaveCount(0);
  await expectNoViolations(page);

  // Without scripts the pager's links still lead to page 2.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: info.project.use.baseURL });
  const plain = await context.newPage();
  await plain.goto(`/b/${brand.id}?site=${site}`);
  await plain.locator('.pager a[rel="next"]').click();
  await expect(plain).toHaveURL(new RegExp(`/b/${brand.id}\\?page=2`));
  await expect(plain.getByTestId('items-grid').locator('[data-item-id]')).toHaveCount(second - 48);
  await context.close();
});

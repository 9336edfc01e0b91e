import { test, expect } from './fixtures';

test('a sale catalog hydrates and one brand filter moves into the URL path', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/c/vente/1001/0?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('items-grid').locator('[data-item-id]')).toHaveCount(48);
  // Filters are folded on phones.
  const toggle = page.getByTestId('filters-toggle');
  if (await toggle.isVisible()) await toggle.click();
  const brand = page.locator('a[data-filter="brand"]').first();
  const slug = await brand.getAttribute('data-slug');
  await brand.click();
  await expect(page).toHaveURL(new RegExp(`/c/vente/1001/0/${slug}$`));
  await expect(page.locator('a[data-filter="brand"][aria-current="true"]')).toHaveCount(1);
  const shown = await page.getByTestId('items-grid').locator('[data-item-id]').count();
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(48);
  expect(errors).toEqual([]);
});

test('a visitor served from the page cache gets a compressed page that hydrates with its own token', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The first visit renders the page; the next ones within end2end/run.sh's cache lifetime
  // (2 s by default) are the cached copy with this visitor's token and nonce spliced in.
  const url = '/c/vente/1001/0?site=1&sort=price_asc';
  await page.request.get(url);
  const res = await page.goto(url);
  expect(res!.status()).toBe(200);
  const headers = await res!.allHeaders();
  expect(headers['content-encoding']).toBe('gzip');
  expect(headers['age']).toMatch(/^\d+$/); // a cached copy says its age
  expect(headers['cache-control']).toBe('private, no-cache');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('items-grid').locator('[data-item-id]')).toHaveCount(48);
  // The token in the page is the one in this visitor's cookie (forms post with it).
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
  const ctx = JSON.parse((await page.locator('html').getAttribute('data-ctx'))!);
  expect(ctx.xsrf).toBe(cookie!.value);
  expect(errors).toEqual([]);
});

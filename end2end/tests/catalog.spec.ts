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
  await expect(page.locator('a[data-filter="brand"][aria-pressed="true"]')).toHaveCount(1);
  const shown = await page.getByTestId('items-grid').locator('[data-item-id]').count();
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(48);
  expect(errors).toEqual([]);
});

import { test, expect } from './fixtures';
import { signInAsDemo } from './session';
import { expectNoViolations } from './a11y';

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

test('catalog sale types: one page shows every item without pages, filtered sales open their filters', async ({ page }, info) => {
  // Spec 000 §3 catalog sale types; each site's 4th sale is one page, 5th filtered, 7th a
  // filtered catalog (server/src/demo/mod.rs).
  const site = info.project.name === 'desktop' ? 1 : 66;
  const base = ([1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76].indexOf(site) + 1) * 1000;
  await signInAsDemo(page, site);

  await page.goto(`/catalog/${base + 4}/0`);
  const onePage = page.locator('section.catalog');
  await expect(onePage).toHaveAttribute('data-catalog-type', '2');
  const count = page.getByTestId('catalog-count');
  const shown = await page.getByTestId('items-grid').locator('[data-item-id]').count();
  await expect(count).toContainText(String(shown));
  await expect(page.locator('.pager')).toHaveCount(0);
  await expect(page.locator('.catalog__universes')).toHaveCount(0);
  await expectNoViolations(page);

  await page.goto(`/catalog/${base + 5}/0`);
  await expect(page.locator('section.catalog')).toHaveAttribute('data-catalog-type', '3');
  // Open even on a phone, where a classic sale folds them: the filters come first.
  await expect(page.locator('details.filters-box')).toHaveAttribute('open', '');
  await expect(page.locator('.filter__option').first()).toBeVisible();
  await expect(page.locator('.catalog__universes')).toBeVisible();

  await page.goto(`/catalog/${base + 7}/0`);
  await expect(page.locator('section.catalog')).toHaveAttribute('data-catalog-type', '4');
  await expect(page.locator('.catalog__universes')).toHaveCount(0);
  const category = page.locator('[data-filter="category"]').first();
  await expect(category).toBeVisible();
  await expectNoViolations(page);
  // A universe is reached through its filter.
  await category.click();
  await expect(page).toHaveURL(new RegExp(`/catalog/${base + 7}/`));
  await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();
});

test('a sale\'s marketing banner and insert show on its catalog, the insert after the first row', async ({ page }, info) => {
  // Spec 000 §3 `marketing`: each site's 3rd sale has a banner and an insert, its 6th a
  // banner only (server/src/demo/marketing.rs), in the site's language.
  const [site, banner] = info.project.name === 'desktop' ? [1, 'Livraison offerte'] : [66, 'Envío gratis'];
  const base = ([1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76].indexOf(site) + 1) * 1000;
  await signInAsDemo(page, site);
  await page.goto(`/catalog/${base + 3}/0`);
  await expect(page.getByTestId('marketing-banner')).toContainText(banner);
  const grid = page.getByTestId('items-grid');
  const insert = grid.getByTestId('marketing-insert');
  await expect(insert).toBeVisible();
  // Four tiles, then the insert.
  await expect(grid.locator(':scope > li').nth(4)).toHaveAttribute('data-testid', 'marketing-insert');
  await expectNoViolations(page);
  await page.goto(`/catalog/${base + 6}/0`);
  await expect(page.getByTestId('marketing-banner')).toContainText(banner);
  await expect(page.getByTestId('marketing-insert')).toHaveCount(0);
});

test('searching within a sale keeps its other choices, says what it found, and clears back to the whole sale', async ({ page }, info) => {
  // Spec 000 §2 `searchTerm`: the catalog page narrows to the sale's items whose name or
  // brand holds the words, as a GET form that works without scripts.
  const [site, none] = info.project.name === 'desktop' ? [1, 'Aucun article'] : [66, 'Ningún artículo'];
  const base = ([1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76].indexOf(site) + 1) * 1000;
  await signInAsDemo(page, site);
  await page.goto(`/catalog/${base + 1}/0?sort=price_asc`);
  const grid = page.getByTestId('items-grid');
  const tiles = grid.locator('[data-item-id]');
  await expect(tiles.first()).toBeVisible();
  const whole = await page.getByTestId('catalog-count').innerText();
  const name = (await tiles.first().locator('.item-tile__name').innerText()).trim();
  const word = name.split(/\s+/).find((w) => w.length >= 4) ?? name;

  const field = page.getByTestId('catalog-search').getByRole('searchbox');
  await field.fill(`  ${word.toUpperCase()}  `);
  await field.press('Enter');
  await expect(page).toHaveURL(/searchTerm=/);
  await expect(page).toHaveURL(/sort=price_asc/); // the other choice rode along
  await expect(field).toHaveValue(word.toUpperCase());
  await expect(page.getByTestId('catalog-search-note')).toContainText(word.toUpperCase());
  const found = await tiles.count();
  expect(found).toBeGreaterThan(0);
  for (const text of await tiles.allInnerTexts()) {
    expect(text.toLowerCase()).toContain(word.toLowerCase());
  }
  await expect(page.getByTestId('catalog-count')).toContainText(String(found));
  // Changing the sort keeps the search.
  await page.locator('.sort__option').nth(2).click();
  await expect(page).toHaveURL(/searchTerm=/);
  await expect(page).toHaveURL(/sort=price_desc/);
  expect(await tiles.count()).toBe(found);
  await expectNoViolations(page);

  // Nothing matches: said in the site's language, with the way back.
  await field.fill('zqxw"<b>');
  await field.press('Enter');
  await expect(page.getByTestId('catalog-search-note')).toContainText(none);
  await expect(page.getByTestId('catalog-search-note')).toContainText('zqxw"<b>');
  await expect(tiles).toHaveCount(0);
  await page.getByTestId('catalog-search-clear').click();
  await expect(page).not.toHaveURL(/searchTerm=/);
  await expect(page.getByTestId('catalog-search-note')).toHaveCount(0);
  await expect(page.getByTestId('catalog-count')).toHaveText(whole);
});

import { test, expect } from './fixtures';
import { signInAsDemo, closePopins, DEMO_EMAIL, DEMO_PASSWORD } from './session';
import { firstSale, memberEmail, register, PASSWORD } from './member-steps';
import { expectNoViolations } from './a11y';

// Desktop and phone run as members of different sites so their favourites never meet.
const siteFor = (project: string) => (project === 'desktop' ? 1 : 70);

test('home → sale → load more → one brand in the path → product → size → favourite shows on the tile after going back', async ({ page }, info) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInAsDemo(page, siteFor(info.project.name));
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');

  // The first sale of the home has 60 items: 48 on the first page.
  await page.getByTestId('sale-grid').locator('a').first().click();
  await expect(page).toHaveURL(/\/catalog\/\d+\/\d+$/);
  // The whole sale rather than its first universe.
  await page.locator('a[data-universe="0"]').click();
  await expect(page).toHaveURL(/\/catalog\/\d+\/0$/);
  const tiles = page.getByTestId('items-grid').locator('[data-item-id]');
  await expect(tiles).toHaveCount(48);
  await expect(page.getByTestId('catalog-count')).toContainText('60');
  // "Load more" appends the next page in place. A page that fails says so and keeps the
  // button; the retry asks for that same page again (the offset moves only on success).
  await page.route(/[?&]page=2(&|$)/, (route) => route.abort(), { times: 1 });
  await page.getByTestId('load-more').click();
  await expect(page.locator('p.error[role="alert"]')).toBeVisible();
  await expect(tiles).toHaveCount(48);
  const again = page.waitForRequest(/[?&]page=2(&|$)/);
  await page.getByTestId('load-more').click();
  await again;
  await expect(tiles).toHaveCount(60);
  await expect(page.locator('p.error[role="alert"]')).toHaveCount(0);
  await expect(page.getByTestId('load-more')).toHaveCount(0);
  // Four columns on request. The switch shows the layouts as pictures (numbered buttons
  // read as pages), named by their column count, under a visible label.
  await expect(page.getByTestId('columns-4')).toHaveText('');
  await expect(page.getByTestId('columns-4').locator('svg rect')).toHaveCount(4);
  await expect(page.getByRole('group', { name: 'Affichage' })).toBeVisible();
  await page.getByTestId('columns-4').click();
  await expect(page.getByTestId('columns-4')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('items-grid')).toHaveClass(/items-grid--4/);

  // One brand: its slug moves into the path.
  // Filters are folded on phones.
  const toggle = page.getByTestId('filters-toggle');
  if (await toggle.isVisible()) await toggle.click();
  const brand = page.locator('a[data-filter="brand"]').first();
  const slug = await brand.getAttribute('data-slug');
  await brand.click();
  await expect(page).toHaveURL(new RegExp(`/catalog/\\d+/\\d+/${slug}$`));
  await expect(page.locator('a[data-filter="brand"][aria-current="true"]')).toHaveCount(1);

  // A product: choose a size that is in stock.
  const tile = tiles.first();
  const itemId = await tile.getAttribute('data-item-id');
  await tile.locator('a').first().click();
  await expect(page).toHaveURL(new RegExp(`/product/\\d+/${itemId}$`));
  await expect(page.getByTestId('datasheet')).not.toBeEmpty();
  // The options island comes up after the in-app navigation swapped the page in.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const option = page.locator('[data-testid="product-option"]:not([disabled])').first();
  await option.check();
  await expect(page.getByTestId('selected-option')).toContainText('Taille choisie');

  // Favourite: the flag flips, and shows on the catalog tile after going back.
  const heart = page.getByTestId('favourite-toggle').first();
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/${slug}$`));
  await expect(page.locator(`[data-item-id="${itemId}"]`).getByTestId('favourite-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator(`[data-item-id="${itemId}"]`)).toHaveAttribute('data-favorite', 'true');

  // The favourites page lists it; removing it there flips it off.
  await page.goto('/postsales/favourites');
  const fav = page.getByTestId('favourites-grid').locator(`[data-item-id="${itemId}"]`);
  await expect(fav).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await fav.getByTestId('favourite-toggle').click();
  await expect(fav.getByTestId('favourite-toggle')).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(page.getByTestId('favourites-empty')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a visitor who taps the heart is sent to sign in and comes back', async ({ page }) => {
  await page.goto('/seo-product/x/1001/y/100101?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('favourite-toggle').first().click();
  await expect(page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
});

test('a visitor who chose a size and tapped "add" signs in and finds that size ready to add', async ({ page }, info) => {
  // A new member (an empty cart), desktop on site 2, phone on site 3.
  const site = info.project.name === 'desktop' ? 2 : 3;
  const email = memberEmail(site, info.project.name, 'pending');
  expect(await register(page, site, email)).toBe(201);
  // A visitor again (the consent answered stays).
  await page.context().clearCookies({ name: 'rosace_session' });
  const product = `/seo-product/x/${firstSale(site)}/y/${firstSale(site) * 100 + 1}`;
  await page.goto(`${product}?site=${site}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // No size yet: asked for one first, nothing else happens.
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-error')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${product}\\?site=${site}$`));
  const option = page.locator('[data-testid="product-option"]:not([disabled])').nth(1);
  const optionId = await option.getAttribute('value');
  await option.check();
  await page.getByTestId('add-to-cart').click();
  await expect(page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  const back = new URL(page.url()).searchParams.get('ReturnUrl') ?? '';
  expect(back).toContain(`productid=${optionId}&quantity=1&type=fs`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
  await expect(page).toHaveURL(new RegExp(`${product}\\?site=${site}&productid=${optionId}&`));
  await closePopins(page);
  await expect(page.getByTestId('pending-add')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.locator(`[data-testid="product-option"][value="${optionId}"]`)).toBeChecked();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('added-to-cart')).toBeVisible();
  // The note said what to do; done, it goes.
  await expect(page.getByTestId('pending-add')).toBeHidden();
  await page.goto('/cart');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-line')).toHaveAttribute('data-product-id', optionId!);
});

test('a session that ended meanwhile: "load more" leads to sign-in, and back to the sale after', async ({ page }, info) => {
  // Other sites than the test above (desktop site 4, phone site 7): their favourites and
  // sessions stay apart.
  const site = info.project.name === 'desktop' ? 4 : 7;
  await signInAsDemo(page, site);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('sale-grid').locator('a').first().click();
  await page.locator('a[data-universe="0"]').click();
  await expect(page).toHaveURL(/\/catalog\/\d+\/0$/);
  const catalog = new URL(page.url()).pathname;
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // Signed out elsewhere (the session cookie is gone), then "load more".
  await page.context().clearCookies({ name: 'rosace_session' });
  await page.getByTestId('load-more').click();
  await expect(page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  expect(decodeURIComponent(new URL(page.url()).searchParams.get('ReturnUrl') ?? '')).toContain(catalog);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(DEMO_EMAIL);
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
  await expect(page).toHaveURL(new RegExp(`${catalog}$`));
  await expect(page.getByTestId('items-grid').locator('[data-item-id]')).toHaveCount(48);
});

test("a product's size guide gives its sizes in the other systems, and a one-size product has none", async ({ page, request }, info) => {
  // Spec 000 §7 "size chart conversions": the demo's sneakers are in EU shoe sizes, its
  // jeans in French sizes, the rest in letters (server/src/demo/catalog.rs).
  const [site, title, uk] = info.project.name === 'desktop' ? [1, 'Guide des tailles', 'Royaume-Uni'] : [66, 'Guía de tallas', 'Reino Unido'];
  const sale = ([1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76].indexOf(site) + 1) * 1000 + 1;
  const headers = { 'x-vp-siteid': String(site) };
  const content = await request.get(`/api/catalog/v2/sale/${sale}/catalogContent/0?limit=96`, { headers });
  expect(content.ok()).toBeTruthy();
  const items: { id: number }[] = (await content.json()).items;
  const charts: Record<string, { id: number; rows: { size: string; conversions: string[] }[] }> = {};
  const oneSize: number[] = [];
  for (const item of items) {
    const res = await request.get(`/api/catalog/v1/sale/${sale}/item/${item.id}/sizeChart`, { headers });
    if (res.status() === 404) {
      oneSize.push(item.id);
      continue;
    }
    expect(res.status()).toBe(200);
    const chart = await res.json();
    charts[chart.kind] ??= { id: item.id, rows: chart.rows };
  }
  expect(Object.keys(charts).sort()).toEqual(['clothing', 'letters', 'shoes']);
  expect(oneSize.length, 'the last item of the first sale is one size').toBeGreaterThan(0);

  await signInAsDemo(page, site);
  const shoes = charts.shoes;
  await page.goto(`/product/${sale}/${shoes.id}`);
  const guide = page.getByTestId('size-guide');
  await expect(guide).toHaveAttribute('data-kind', 'shoes');
  await expect(guide.locator('table')).toBeHidden();
  await guide.getByText(title).click();
  const table = guide.locator('table');
  await expect(table).toBeVisible();
  await expect(table.locator('thead th').nth(1)).toHaveText(uk);
  // One row per option, in the options' order, the page's options and the call agreeing.
  const labels = (await page.locator('.option__label').allInnerTexts()).map((l) => l.trim());
  expect(labels).toEqual(shoes.rows.map((r) => r.size));
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(shoes.rows.length);
  for (const [i, row] of shoes.rows.entries()) {
    await expect(rows.nth(i).locator('th')).toHaveText(row.size);
    await expect(rows.nth(i).locator('td')).toHaveText(row.conversions);
  }
  await expectNoViolations(page);

  await page.goto(`/product/${sale}/${oneSize[0]}`);
  await expect(page.locator('h1')).toBeVisible();
  await expect(page.getByTestId('size-guide')).toHaveCount(0);
});

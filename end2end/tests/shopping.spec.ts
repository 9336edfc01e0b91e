import { test, expect } from './fixtures';
import { signInAsDemo, DEMO_EMAIL, DEMO_PASSWORD } from './session';

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
  // "Load more" appends the next page in place.
  await page.getByTestId('load-more').click();
  await expect(tiles).toHaveCount(60);
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

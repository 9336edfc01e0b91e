import { test, expect } from './fixtures';

// The home (issue #4): modules as tiles of every size, the pedagogical module, sale tiles
// counting down, and the scroll position kept per home.

test('the home shows module tiles, the pedagogical module and a ticking countdown', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('banner-tile').first()).toBeVisible();
  for (const size of ['M', 'XL', 'XXL', 'MEGAFAT']) {
    await expect(page.locator(`[data-testid="banner-tile"][data-tile-size="${size}"]`).first()).toBeVisible();
  }
  // The split banner without a mobile image is not there.
  await expect(page.locator('[data-banner-kind="SplittedBanner"]')).toHaveCount(0);

  const ped = page.getByTestId('pedagogical');
  await ped.scrollIntoViewIfNeeded();
  await expect(ped).toBeVisible();
  // White text: a transparent button; its link carries home identifier 1.
  await expect(ped.locator('a.button--transparent')).toHaveAttribute('href', /homeId=1$/);
  // Three highlights, two per page.
  await expect(ped.getByTestId('pedagogical-page')).toHaveCount(2);
  await ped.getByTestId('pedagogical-next').click();
  await expect(ped.locator('.pedagogical__dot[aria-current="true"]')).toHaveText('2');
  await expect(ped.getByTestId('pedagogical-page').nth(1).getByTestId('banner-tile')).toBeInViewport();

  // Sale tiles count down, second by second.
  const countdown = page.getByTestId('sale-grid').getByTestId('countdown').first();
  await expect(countdown).toContainText(/Se termine dans .*\d\d:\d\d:\d\d/);
  const before = await countdown.textContent();
  await page.waitForTimeout(1500);
  expect(await countdown.textContent()).not.toBe(before);
  expect(errors).toEqual([]);
});

test('a named home and one of its parts', async ({ page }) => {
  await page.goto('/gr/home/SUMMER?site=2');
  await expect(page.getByTestId('home')).toHaveAttribute('data-home', 'summer');
  await expect(page.locator('h1')).toHaveText('Sommer-Special');
  await page.goto('/gr/home/summer?site=2&part=summer-pedagogy');
  await expect(page.getByTestId('pedagogical')).toBeVisible();
  await expect(page.getByTestId('pedagogical-page')).toHaveCount(1);
  await expect(page.locator('[data-module="summer-sales"]')).toHaveCount(0);
  await page.getByTestId('home-part').getByRole('link').click();
  await expect(page.locator('[data-module="summer-sales"]')).toBeVisible();
});

test('the scroll position of a home is kept when coming back to it', async ({ page }) => {
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const tile = page.getByTestId('sale-grid').locator('a').nth(6);
  await tile.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 200);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  // Phones scroll smoothly: wait until the position stops moving.
  let y = -1;
  await expect
    .poll(
      async () => {
        const now = await page.evaluate(() => window.scrollY);
        const settled = now === y;
        y = now;
        return settled;
      },
      { intervals: [300] },
    )
    .toBe(true);
  // Saved 500 ms after scrolling stops.
  await expect
    .poll(async () => Number(await page.evaluate(() => sessionStorage.getItem('rosace.home.scroll.default'))))
    .toBeCloseTo(y, -1);

  // To a sale and back.
  await tile.click();
  await expect(page).toHaveURL(/\/c\/[^/]+\/\d+\/\d+/);
  await page.goBack();
  await expect(page.getByTestId('sale-grid')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 30);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(y + 30);

  // Coming back later, by a new visit of the home.
  await page.goto('/gr/aboutus?site=1');
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 30);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(y + 30);
});

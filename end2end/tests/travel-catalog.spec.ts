import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { closePopins, DEMO_EMAIL, DEMO_PASSWORD, signInAsDemo } from './session';
import { signIn } from './member-steps';

// The first travel sale of site 1: 12 offers, 9 per page, with a map.
const CATALOG = '/t/c/1025';

const cards = (page: import('@playwright/test').Page) => page.getByTestId('offers-grid').getByTestId('offer-card');

/// Opens the filter drawer on phones (it is always open from desktop width).
async function openFilters(page: import('@playwright/test').Page) {
  const toggle = page.getByTestId('filters-toggle');
  if (await toggle.isVisible()) {
    const open = await page.getByTestId('filters-drawer').evaluate((d) => (d as HTMLDetailsElement).open);
    if (!open) await toggle.click();
  }
}

test('a travel catalog filters, appends the next page and passes axe', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInAsDemo(page, 1, `${CATALOG}?site=1`);
  await expect(page).toHaveURL(new RegExp(`${CATALOG}`));
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(cards(page)).toHaveCount(9);
  await expect(page.getByTestId('offers-count')).toHaveAttribute('data-total', '12');
  await expectNoViolations(page);

  // "More" appends the last 3 offers in place, with their favourite buttons live.
  await page.getByTestId('more-offers').click();
  await expect(cards(page)).toHaveCount(12);
  await expect(page.getByTestId('more-offers')).toHaveCount(0);
  await expect(cards(page).nth(11).getByTestId('favourite-toggle')).toBeVisible();
  // The address follows, so a reload shows the same list.
  await expect(page).toHaveURL(new RegExp(`${CATALOG}\\?(site=1&)?page=2$`));
  await page.reload();
  await expect(cards(page)).toHaveCount(12);
  await expect(page.getByTestId('more-offers')).toHaveCount(0);

  // A filter narrows the list; the URL carries it and the chip removes it.
  await openFilters(page);
  const option = page.locator('input[name="board"]').first();
  const value = await option.getAttribute('value');
  await option.check();
  await page.getByTestId('filters-apply').click();
  await expect(page).toHaveURL(new RegExp(`board=${value}`));
  const total = Number(await page.getByTestId('offers-count').getAttribute('data-total'));
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThan(12);
  await expect(cards(page)).toHaveCount(Math.min(total, 9));
  await expectNoViolations(page);
  await page.getByTestId('remove-filter').first().click();
  await expect(page.getByTestId('offers-count')).toHaveAttribute('data-total', '12');

  // A departure date typed in the form travels as DDMMYY.
  await openFilters(page);
  const month = await page.getByTestId('filter-dates').locator('option').nth(2).getAttribute('value');
  await page.getByTestId('filter-checkin').fill(`${month}-15`);
  await page.getByTestId('filters-apply').click();
  const [year, mm] = month!.split('-');
  await expect(page).toHaveURL(new RegExp(`checkin=15${mm}${year.slice(2)}`));
  expect(errors).toEqual([]);
});

test('pins and cards highlight each other: hover and keyboard, or a tap on a phone', async ({ page, isMobile }) => {
  // Through the sign-in form, whose button leaves the emulated mouse mid-screen. Opened
  // directly, the page has the mouse at its top-left corner, on the header; a phone's tap in
  // Chromium's emulation then ends with the mouse going back there, which the map reads as
  // leaving the pin, and the card's mark goes (no real phone has that mouse).
  await signIn(page, 1, DEMO_EMAIL, DEMO_PASSWORD, `${CATALOG}?site=1`);
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const map = page.getByTestId('travel-map');
  // The widget's script loads as the map nears the viewport (below the list on a phone).
  await map.scrollIntoViewIfNeeded();
  // The widget draws one pin per listed offer in its shadow root.
  await expect(map.locator('li.tm-pin-wrap')).toHaveCount(9);
  if (isMobile) {
    // A tap on a pin marks its card; focusing a card's link highlights its pin.
    const card = cards(page).nth(2);
    const id = await card.getAttribute('data-offer-id');
    await map.locator(`li.tm-pin-wrap[data-offer-id="${id}"] button.tm-pin`).tap();
    await expect(card).toHaveClass(/trv-card--highlighted/);
    await expect(card).toHaveAttribute('aria-current', 'true');
    const other = cards(page).first();
    await other.getByTestId('offer-link').focus();
    await expect(map).toHaveAttribute('highlighted', (await other.getAttribute('data-offer-id'))!);
    return;
  }
  const first = cards(page).first();
  const id = await first.getAttribute('data-offer-id');
  await first.hover();
  await expect(map).toHaveAttribute('highlighted', id!);
  await expect(map.locator(`li.tm-pin-wrap[data-offer-id="${id}"]`)).toHaveClass(/tm-shown/);
  // Keyboard: focusing a card's link does the same.
  const second = cards(page).nth(1);
  const secondId = await second.getAttribute('data-offer-id');
  await second.getByTestId('offer-link').focus();
  await expect(map).toHaveAttribute('highlighted', secondId!);
  // The other way round: a pin under the pointer marks its card.
  const third = cards(page).nth(2);
  const thirdId = await third.getAttribute('data-offer-id');
  await map.locator(`li.tm-pin-wrap[data-offer-id="${thirdId}"] button.tm-pin`).hover();
  await expect(third).toHaveClass(/trv-card--highlighted/);
  await expect(third).toHaveAttribute('aria-current', 'true');
  // Pins follow the cards "more" appends.
  await page.getByTestId('more-offers').click();
  await expect(map.locator('li.tm-pin-wrap')).toHaveCount(12);
});

test('without scripts every offer is listed and "more" is a link', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const res = await page.goto('/voyages/c/1025?site=1');
  expect(res!.status()).toBe(200);
  await expect(cards(page)).toHaveCount(9);
  await page.getByTestId('more-offers').click();
  await expect(page).toHaveURL(/page=2/);
  await expect(cards(page)).toHaveCount(12);
  await context.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the filter drawer opens from its button and the cookie remembers it', async ({ page, context }) => {
    await signInAsDemo(page, 1, `${CATALOG}?site=1`);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const drawer = page.getByTestId('filters-drawer');
    await expect(drawer).not.toHaveAttribute('open', '');
    await expect(page.getByTestId('travel-filters')).toBeHidden();
    await page.getByTestId('filters-toggle').click();
    await expect(page.getByTestId('travel-filters')).toBeVisible();
    const cookie = async () => (await context.cookies()).find((c) => c.name === 'trv_push_filter')?.value;
    await expect.poll(cookie).toBe('drawerOpened');
    await expectNoViolations(page);
    // The next render opens it again.
    await page.reload();
    await expect(drawer).toHaveAttribute('open', '');
    await expect(page.getByTestId('travel-filters')).toBeVisible();
    // Closing clears the cookie.
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await page.getByTestId('filters-close').click();
    await expect(page.getByTestId('travel-filters')).toBeHidden();
    await expect.poll(cookie).toBeUndefined();
    await page.reload();
    await expect(drawer).not.toHaveAttribute('open', '');
  });
});

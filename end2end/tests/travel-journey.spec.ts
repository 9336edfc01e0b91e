import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { DEMO_EMAIL_2, signInAsDemo } from './session';
import { expectNoViolations } from './a11y';
import { otherBrowser } from './member-steps';
import { configuratorSettled } from './travel-steps';

// The whole travel journey as one member goes through it, on the French site on desktop and
// the German one on phones: travel home → destination by autocomplete → results with their
// map → a pin marks its card → the product → cheapest mode → a day in the calendar → a
// child → checkout with the member's favourite address → sandbox payment → the booking in
// My orders; then the second demo member, who has no address on these sites, is stopped
// at the same checkout and sent to the address page, which leads back to it. The single
// steps are examined in detail by travel-search, travel-catalog and travel-product.spec.ts.
const CASES = {
  desktop: { site: 1, typed: 'grè', country: 'Grèce', city: 'PAR', lang: 'fr' },
  phone: { site: 2, typed: 'grie', country: 'Griechenland', city: 'BER', lang: 'de' },
};
const travelTexts = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/travel/${lang}.json`, import.meta.url), 'utf8'));

// The demo's k-th offer of a sale (product id = sale × 100 + k + 1) leaves from one city when
// k % 4 == 1 (no cheapest mode then) and takes exactly two travellers when k % 6 == 5.
const configurable = (productId: number) => {
  const k = (productId % 100) - 1;
  return k % 4 !== 1 && k % 6 !== 5;
};

function childBirthday(): string {
  const d = new Date();
  return `${d.getFullYear() - 6}-06-15`;
}

test('travel home → search → map → product → calendar → child → checkout → paid → My orders', async ({ page, isMobile, browser, baseURL }, info) => {
  const c = info.project.name === 'desktop' ? CASES.desktop : CASES.phone;
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInAsDemo(page, c.site, '/home/travel');
  await expect(page.getByTestId('travel-home')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');

  // Destination by autocomplete, a departure city, then the results.
  const input = page.getByTestId('travel-destination');
  await input.click();
  await input.pressSequentially(c.typed, { delay: 40 });
  await page.getByTestId('travel-suggestions').locator('[role="option"][data-kind="country"]', { hasText: c.country }).click();
  await expect(input).toHaveValue(c.country);
  await page.getByTestId('travel-departure').selectOption(c.city);
  await page.getByTestId('travel-search-submit').click();
  await expect(page).toHaveURL(/\/t\/r\?/);
  const cards = page.getByTestId('offer-card');
  await expect(cards.first()).toBeVisible();

  // An offer with several departure cities and room for a child, and its pin on the map.
  const ids = (await cards.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-offer-id')))));
  const productId = ids.find(configurable);
  expect(productId, `a configurable offer among ${ids.join(', ')}`).toBeDefined();
  const card = page.locator(`[data-testid="offer-card"][data-offer-id="${productId}"]`);
  const map = page.getByTestId('travel-map');
  await map.scrollIntoViewIfNeeded();
  const pin = map.locator(`li.tm-pin-wrap[data-offer-id="${productId}"] button.tm-pin`);
  await expect(pin).toBeVisible();
  if (isMobile) await pin.tap();
  else await pin.hover();
  await expect(card).toHaveClass(/trv-card--highlighted/);
  await expect(card).toHaveAttribute('aria-current', 'true');
  await expectNoViolations(page);

  await card.getByTestId('offer-link').click();
  await expect(page).toHaveURL(new RegExp(`/t/p/\\d+/${productId}$`));
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');

  // Cheapest mode, then a day of the calendar ends it and sets the dates and price.
  const cheapest = page.getByTestId('trip-cheapest');
  await cheapest.check();
  await configuratorSettled(page);
  await expect(cheapest).toBeChecked();
  await page.getByTestId('travel-calendar').scrollIntoViewIfNeeded();
  const days = page.locator('travel-calendar button.rdp-day_button:not([disabled])');
  await expect(days.first()).toBeVisible();
  await days.nth(2).click();
  await configuratorSettled(page);
  await expect(cheapest).not.toBeChecked();
  await expect(page.getByTestId('trip-dates')).not.toBeEmpty();
  const totalTwo = await page.getByTestId('trip-total').textContent();
  expect(totalTwo).toMatch(/\d/);

  // A child: blocked until the birthday is given, and the total follows.
  await page.getByTestId('party-children').locator('button').last().click();
  await expect(page.getByTestId('trip-book')).toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('party-birthday').fill(childBirthday());
  await expect(page.getByTestId('trip-blocks')).toBeEmpty();
  await expect(page.getByTestId('trip-total')).not.toHaveText(totalTwo!);

  // Checkout: the travellers, the member's favourite address (preselected), a sandbox card.
  await page.getByTestId('trip-book').click();
  await expect(page).toHaveURL(/\/checkout\?/);
  const checkoutUrl = new URL(page.url());
  const checkoutPath = checkoutUrl.pathname + checkoutUrl.search;
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('traveller')).toHaveCount(3);
  const names = [['Zoé', 'Ngô'], ['Jürgen', 'Weiß'], ['Léa', 'Ngô']];
  for (let i = 0; i < 3; i++) {
    await page.locator(`#travellers-${i}-first`).fill(names[i][0]);
    await page.locator(`#travellers-${i}-last`).fill(names[i][1]);
    if (i < 2) await page.locator(`#travellers-${i}-birthday`).fill('1979-11-02');
  }
  // No address to type: the saved ones, the favourite (else the first) chosen.
  await expect(page.locator('#address-street')).toHaveCount(0);
  const book = await (await page.request.get('/api/address/v1')).json();
  // Other specs edit the demo member's book (addresses.spec makes an address the favourite,
  // then deletes it), so the expected choice is the rule's: the favourite, else the first.
  const saved: { id: number; isFavorite: boolean }[] = book.addresses ?? book;
  expect(saved.length, 'the demo member has saved addresses').toBeGreaterThan(0);
  const favourite = saved.find((a) => a.isFavorite) ?? saved[0];
  const chosen = page.getByTestId('delivery-choice').locator('input[name="deliveryAddressId"]:checked');
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toHaveValue(String(favourite.id));
  await expectNoViolations(page);
  await page.locator('#card').fill('4242 4242 4242 4242');
  await page.getByTestId('trip-pay').click();
  const booked = page.getByTestId('trip-booked');
  await expect(booked).toBeVisible();

  // The booking is an order of its own in My orders.
  await booked.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/my-orders\/travel\/\d+/);
  await expect(page.getByTestId('order-line').first()).toBeVisible();
  await expectNoViolations(page);
  expect(errors).toEqual([]);

  // The second demo member has no address here: the same checkout says so, blocks the
  // booking on it and links to the address page, which offers the way back.
  const other = await otherBrowser(browser, baseURL);
  const t = travelTexts(c.lang);
  await signInAsDemo(other.page, c.site, checkoutPath, DEMO_EMAIL_2);
  await expect(other.page).toHaveURL(/\/checkout\?/);
  const blocked = other.page.getByTestId('trip-checkout-blocked');
  await expect(blocked.locator('[data-field="addressId"]')).toHaveText(t['travel.block.missing_address']);
  await expect(other.page.getByTestId('delivery-none')).toHaveText(t['travel.checkout.no_address']);
  await expect(other.page.getByTestId('trip-pay')).toHaveCount(0);
  await expectNoViolations(other.page);
  await other.page.getByTestId('delivery-add-link').click();
  await expect(other.page).toHaveURL(/\/postsales\/myaccount\/addresses\/\?returnTo=/);
  await expect(other.page.getByTestId('address-form')).toBeVisible();
  const escaped = checkoutUrl.pathname.replace(/[/.]/g, (m) => `\\${m}`);
  await expect(other.page.getByTestId('address-back')).toHaveAttribute('href', new RegExp(`^${escaped}\\?package=`));
  await other.page.getByTestId('address-back').click();
  await expect(other.page.getByTestId('trip-summary')).toBeVisible();
  await expect(other.page.getByTestId('delivery-add-link')).toBeVisible();
  await other.context.close();
});

import { test, expect } from './fixtures';
import { signInAsDemo } from './session';
import { expectNoViolations } from './a11y';

// The French site on desktop, the German one on phones: a country to type, what it is
// called, and a departure city of the site's demo data.
const CASES = {
  desktop: { site: 1, typed: 'grè', country: 'Grèce', city: 'PAR', flex: ['Date exacte', '± 1 jour', '± 3 jours', '± 7 jours'] },
  phone: { site: 2, typed: 'grie', country: 'Griechenland', city: 'BER', flex: ['Genaues Datum', '± 1 Tag', '± 3 Tage', '± 7 Tage'] },
};

test('travel home → destination by keyboard → results → an offer; the departure city is remembered', async ({ page }, info) => {
  const c = info.project.name === 'desktop' ? CASES.desktop : CASES.phone;
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInAsDemo(page, c.site, '/home/travel');
  await expect(page.getByTestId('travel-home')).toBeVisible();
  await expect(page.getByTestId('travel-sale')).toHaveCount(3);
  await expectNoViolations(page);

  // The autocomplete: a WAI-ARIA combobox, driven by the keyboard.
  const input = page.getByTestId('travel-destination');
  const list = page.getByTestId('travel-suggestions');
  await input.click();
  await input.pressSequentially(c.typed, { delay: 40 });
  await expect(list).toBeVisible();
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  const country = list.locator('[role="option"][data-kind="country"]', { hasText: c.country });
  await expect(country).toBeVisible();
  await input.press('ArrowDown');
  await expect(input).toHaveAttribute('aria-activedescendant', 'trv-destination-option-0');
  await expect(list.locator('#trv-destination-option-0')).toHaveAttribute('aria-selected', 'true');
  await input.press('Enter');
  await expect(list).toBeHidden();
  await expect(input).toHaveValue(c.country);
  const chosen = page.getByTestId('travel-destination-id');
  await expect(chosen).toBeEnabled();
  const destinationId = await chosen.inputValue();
  expect(destinationId).toMatch(/^\d+$/);
  // Typing again forgets the choice; choosing again brings it back.
  await input.press('End');
  await input.press('Backspace');
  await expect(chosen).toBeDisabled();
  await input.fill('');
  await input.pressSequentially(c.typed, { delay: 40 });
  await expect(country).toBeVisible();
  await country.click();
  await expect(chosen).toHaveValue(destinationId);

  // Exact dates and a month clear each other.
  const checkin = page.getByTestId('travel-checkin');
  const month = page.getByTestId('travel-dates');
  const secondMonth = await month.locator('option').nth(2).getAttribute('value');
  await month.selectOption(secondMonth!);
  await checkin.fill(`${secondMonth}-10`);
  await expect(month).toHaveValue('');
  await month.selectOption(secondMonth!);
  await expect(checkin).toHaveValue('');
  await month.selectOption('');

  // Departure city, then the results.
  await page.getByTestId('travel-departure').selectOption(c.city);
  await page.getByTestId('travel-search-submit').click();
  await expect(page).toHaveURL(new RegExp(`/t/r\\?.*destinationId=${destinationId}&.*departureCityCode=${c.city}`));
  await expect(page.getByTestId('travel-results-page')).toBeVisible();
  await expect(page.getByTestId('travel-destination')).toHaveValue(c.country);
  const cards = page.getByTestId('offer-card');
  await expect(cards.first()).toBeVisible();
  await expectNoViolations(page);
  const href = await cards.first().getByTestId('offer-link').getAttribute('href');
  await cards.first().getByTestId('offer-link').click();
  await expect(page).toHaveURL(new RegExp(href!.replace(/\//g, '\\/') + '$'));

  // The cookie keeps the city for next time: preselected on the search page and at home.
  const cookie = (await page.context().cookies()).find((k) => k.name === 'trv_departure_city');
  expect(cookie?.value).toBe(c.city);
  expect(cookie?.path).toBe('/');
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
  await page.goto('/t/s');
  await expect(page.getByTestId('travel-departure')).toHaveValue(c.city);
  await expectNoViolations(page);
  await page.goto('/home/travel');
  await expect(page.getByTestId('travel-departure')).toHaveValue(c.city);
  // The product opened above is now in the last viewed list.
  await expect(page.getByTestId('travel-last-viewed').locator(`a[href="${href}"]`)).toBeVisible();
  // A travel sale's tile links its catalog by the sale's slug (spec 001 §2), which leads
  // to the catalog itself.
  const tile = page.getByTestId('travel-sale').first().locator('a').first();
  await expect(tile).toHaveAttribute('href', /^\/catalog\/[a-z0-9-]+$/);
  await tile.click();
  await expect(page).toHaveURL(/\/t\/c\/\d+$/);
  await expect(page.getByTestId('travel-catalog')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a travel sale chosen as destination opens its catalog; wrong dates are explained', async ({ page }, info) => {
  const c = info.project.name === 'desktop' ? CASES.desktop : CASES.phone;
  await signInAsDemo(page, c.site, '/t/s');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const input = page.getByTestId('travel-destination');
  await input.click();
  await input.pressSequentially('hot', { delay: 40 });
  const sale = page.getByTestId('travel-suggestions').locator('[role="option"][data-kind="sale"]').first();
  await expect(sale).toBeVisible();
  const id = (await sale.getAttribute('data-id'))!.replace('sale-', '');
  await sale.click();
  await page.getByTestId('travel-search-submit').click();
  await expect(page).toHaveURL(new RegExp(`/t/c/${id}$`));

  // A checkout before the checkin: said by the checkout field, which keeps the typed day.
  await page.goto('/t/r?checkin=2030-05-10&checkout=2030-05-01');
  const checkout = page.getByTestId('travel-checkout');
  await expect(page.getByTestId('travel-search-error')).toHaveText(/.+/);
  await expect(checkout).toHaveValue('2030-05-01');
  await expect(checkout).toHaveAttribute('aria-invalid', 'true');
  await expect(checkout).toHaveAttribute('aria-describedby', await page.getByTestId('travel-search-error').getAttribute('id') ?? '');
  await expect(page.getByTestId('travel-search-error')).toHaveCount(1);
  await expectNoViolations(page);
  // A corrected day clears the error, and the search runs with both days.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await checkout.fill('2030-05-17');
  await expect(page.getByTestId('travel-search-error')).toHaveCount(0);
  await expect(checkout).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('travel-search-submit').click();
  await expect(page).toHaveURL(/checkin=2030-05-10.*checkout=2030-05-17/);
  await expect(page.getByTestId('travel-search-error')).toHaveCount(0);

  // The date-change options (spec 000 §9): ±1, 3 or 7 days around the check-in, kept in
  // the address and shown chosen on the next page.
  const flex = page.getByTestId('travel-flex');
  await expect(flex.locator('option')).toHaveText(c.flex);
  await flex.selectOption('7');
  await page.getByTestId('travel-search-submit').click();
  await expect(page).toHaveURL(/checkin=2030-05-10.*flex=7/);
  await expect(page.getByTestId('travel-flex')).toHaveValue('7');
  await expectNoViolations(page);
});

test('the open-door travel home works without signing in', async ({ page }) => {
  await page.goto('/voyages?site=1');
  await expect(page.getByTestId('travel-home')).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/voyages(\?site=\d+)?$/);
  await expect(page.getByTestId('travel-sale').first().locator('a')).toHaveAttribute('href', /^\/voyages\/c\/\d+$/);
  await expectNoViolations(page);
});

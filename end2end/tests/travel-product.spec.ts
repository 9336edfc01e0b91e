import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';
import { expectNoViolations } from './a11y';
import { configuratorSettled } from './travel-steps';

// Sites in the demo data, in order; each site's first travel sale follows its 24 shopping
// sales. Offer k=3 of a sale has several packages and departure cities.
const SITES = [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76];
const travelSale = (site: number) => (SITES.indexOf(site) + 1) * 1000 + 25;

function childBirthday(): string {
  // Six years old today: a child (2–11) on any departure of the coming year.
  const d = new Date();
  return `${d.getFullYear() - 6}-06-15`;
}

test('configure a trip: cheapest mode, a day in the calendar, a child, checkout, a declined then a paid card, My orders', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const sale = travelSale(site);
  const product = sale * 100 + 3;
  await signInAsDemo(page, site, `/t/p/${sale}/${product}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('trip-configurator')).toBeVisible();
  await expectNoViolations(page);

  // Cheapest mode picks the cheapest city and duration; choosing a day ends it.
  const cheapest = page.getByTestId('trip-cheapest');
  await cheapest.check();
  await configuratorSettled(page);
  await expect(cheapest).toBeChecked();
  // The calendar's script loads as it nears the viewport.
  await page.getByTestId('travel-calendar').scrollIntoViewIfNeeded();
  const days = page.locator('travel-calendar button.rdp-day_button:not([disabled])');
  await expect(days.first()).toBeVisible();
  await days.nth(1).click();
  await configuratorSettled(page);
  await expect(cheapest).not.toBeChecked();
  await expect(page.getByTestId('trip-dates')).not.toBeEmpty();
  const perPerson = await page.getByTestId('trip-price').textContent();
  const totalTwo = await page.getByTestId('trip-total').textContent();
  expect(perPerson).toMatch(/\d/);

  // A child without a birthday blocks booking and says so; the birthday unblocks it.
  await page.getByTestId('party-children').locator('button').last().click();
  // Named as its field is labelled (the first child), not as the third traveller.
  await expect(page.getByTestId('trip-blocks').locator('[data-field="participants.2"]')).toHaveText(
    site === 1 ? "la date de naissance de l'enfant 1" : 'das Geburtsdatum von Kind 1',
  );
  await expect(page.getByTestId('trip-book')).toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('party-birthday').fill(childBirthday());
  await expect(page.getByTestId('trip-blocks')).toBeEmpty();
  await expect(page.getByTestId('trip-total')).not.toHaveText(totalTwo!);
  await expectNoViolations(page);
  // The configuration is in the address: a reload shows the same one, and the price is
  // read out.
  await expect(page).toHaveURL(new RegExp(`party=a,a,c${childBirthday()}`));
  await expect(page.locator('[data-config-status]')).toContainText(/\d/);
  const total = await page.getByTestId('trip-total').textContent();
  await page.reload();
  await expect(page.getByTestId('party-birthday')).toHaveValue(childBirthday());
  await expect(page.getByTestId('trip-total')).toHaveText(total!);
  await expect(page.locator('.config__apply')).toBeHidden();

  await page.getByTestId('trip-book').click();
  await expect(page).toHaveURL(/\/checkout\?/);
  await expect(page.getByTestId('trip-summary')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const travellers = page.getByTestId('traveller');
  await expect(travellers).toHaveCount(3);
  // Nothing filled: each field says what is wrong, and nothing is sent.
  await page.getByTestId('trip-pay').click();
  await expect(page.getByTestId('trip-checkout-error')).toBeVisible();
  await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
  await expectNoViolations(page);

  const names = [['Zoé', 'Ngô'], ['Ana', 'Ruiz-Pérez'], ['Léa', 'Ngô']];
  for (let i = 0; i < 3; i++) {
    await page.locator(`#travellers-${i}-first`).fill(names[i][0]);
    await page.locator(`#travellers-${i}-last`).fill(names[i][1]);
    if (i < 2) await page.locator(`#travellers-${i}-birthday`).fill('1980-01-31');
  }
  await expect(page.locator(`#travellers-2-birthday`)).toHaveValue(childBirthday());
  // The address is one of the member's saved ones, the favourite chosen (travel-journey
  // examines the address step).
  await expect(page.getByTestId('delivery-choice').locator('input[name="deliveryAddressId"]:checked')).toHaveCount(1);

  // Declined: the places stay held, another card pays the same booking.
  await page.locator('#card').fill('4000 0000 0000 0002');
  await page.getByTestId('trip-pay').click();
  await expect(page.getByTestId('trip-checkout-error')).toBeVisible();
  await page.locator('#card').fill('4242 4242 4242 4242');
  await page.getByTestId('trip-pay').click();
  const booked = page.getByTestId('trip-booked');
  await expect(booked).toBeVisible();
  await expectNoViolations(page);
  await booked.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/my-orders\/travel\/\d+/);
  await expect(page.getByTestId('order-line').first()).toContainText('·');
  // A trip is not a parcel: its day as the site writes dates, no shipping line, and the
  // booking's address is the billing one.
  await expect(page.getByTestId('order-line').first()).toContainText(site === 1 ? /\d{2}\/\d{2}\/\d{4}/ : /\d{2}\.\d{2}\.\d{4}/);
  await expect(page.getByTestId('order-line').first()).not.toContainText(/\d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId('order-shipping')).toHaveCount(0);
  await expect(page.getByTestId('order-delivery').getByRole('heading')).toHaveText(site === 1 ? 'Adresse de facturation' : 'Rechnungsadresse');
  // The travellers as named at checkout, labelled as the configurator labelled them, with
  // their birthdays as the site writes dates.
  const [y, m, d] = childBirthday().split('-');
  const travellersShown = page.getByTestId('order-travellers');
  await expect(travellersShown.getByTestId('order-traveller')).toHaveText([
    site === 1 ? 'Zoé Ngô · 31/01/1980' : 'Zoé Ngô · 31.01.1980',
    site === 1 ? 'Ana Ruiz-Pérez · 31/01/1980' : 'Ana Ruiz-Pérez · 31.01.1980',
    site === 1 ? `Léa Ngô · ${d}/${m}/${y}` : `Léa Ngô · ${d}.${m}.${y}`,
  ]);
  await expect(travellersShown.locator('dt').last()).toHaveText(site === 1 ? 'Enfant 1' : 'Kind 1');

  // The trip just booked is first in the member's last viewed on the travel home, and
  // another trip's page lists it too.
  await page.goto('/home/travel');
  await expect(page.getByTestId('travel-last-viewed').getByTestId('offer-card').first()).toHaveAttribute('data-offer-id', String(product));
  await page.goto(`/t/p/${sale}/${product + 1}`);
  await expect(page.getByTestId('travel-last-viewed').locator(`[data-offer-id="${product}"]`)).toBeVisible();
  await expectNoViolations(page);
});

// The site's travel texts (app/locales/travel), for what the configurator says.
const LANG: Record<number, string> = { 4: 'it', 7: 'de' };
const travelTexts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/travel/${LANG[site]}.json`, import.meta.url), 'utf8'));

test('the configurator follows the keyboard: another package, a typed birthday, a child of adult age said', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 4 : 7;
  const t = travelTexts(site);
  const sale = travelSale(site);
  // Two packages leaving from the same cities; the offer opens on the second one.
  await signInAsDemo(page, site, `/t/p/${sale}/${sale * 100 + 3}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const chosen = (group: string) => page.getByTestId(group).locator('label:has(input:checked) > span').first();
  const city = await chosen('trip-cities').textContent();
  const stay = await chosen('trip-durations').textContent();
  expect(city).toBeTruthy();

  // Another package keeps the city and stay it also offers: departures are shown, not
  // "no departures" (which the page and the calendar both said).
  await page.getByTestId('trip-packages').locator('input:not(:checked)').first().check();
  await configuratorSettled(page);
  await expect(chosen('trip-cities')).toHaveText(city!);
  await expect(chosen('trip-durations')).toHaveText(stay!);
  await expect(page.getByTestId('travel-calendar-empty')).toHaveCount(0);
  await expect(page.getByText(t['travel.calendar.empty'])).toHaveCount(0);
  await page.getByTestId('travel-calendar').scrollIntoViewIfNeeded();
  const days = page.locator('travel-calendar button.rdp-day_button:not([disabled])');
  await days.nth(1).click();
  await configuratorSettled(page);

  // A birthday typed key by key is sent once, when the member leaves the field (desktop);
  // one picked is sent at once (phone).
  await page.getByTestId('party-children').locator('button').last().click();
  await configuratorSettled(page);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('shown_')) sent.push(r.url());
  });
  const birthday = page.getByTestId('party-birthday');
  const year = new Date().getFullYear() - 6;
  if (info.project.name === 'desktop') {
    await birthday.focus();
    await birthday.pressSequentially(`0615${year}`); // the browser's en-US order: mm dd yyyy
    await expect(birthday).toHaveValue(`${year}-06-15`);
    expect(sent).toHaveLength(0);
    await birthday.blur(); // leaves the field (Tab first reaches its calendar button)
  } else {
    // A phone picks the date in its calendar: sent at once.
    await birthday.fill(`${year}-06-15`);
  }
  await expect.poll(() => sent.length).toBe(1);
  await configuratorSettled(page);
  await expect(page.getByTestId('party-birthday')).toHaveValue(`${year}-06-15`);
  await expect(page.getByTestId('trip-age-changes')).toHaveCount(0);

  // A birthday of adult age: the child counts as an adult, and the page says so.
  await page.getByTestId('party-birthday').fill('1990-06-15');
  await configuratorSettled(page);
  const who = t['travel.party.child_n'].replace('{n}', '1');
  await expect(page.getByTestId('trip-age-changes')).toHaveText(t['travel.party.now_adult'].replace('{who}', who));
  await expect(page.getByTestId('party-birthday')).toHaveCount(0);
  await expect(page.getByTestId('party-adults').locator('output')).toHaveText('3');
  await expect(page.locator('[data-config-status]')).toContainText(who);
  await expectNoViolations(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the SEO product page is complete: title, price notices, configurator defaults, dates as a list, JSON-LD', async ({ page }) => {
    const sale = travelSale(1);
    await page.goto(`/voyages/p/${sale}/${sale * 100 + 3}?site=1`);
    await expect(page.locator('h1')).toBeVisible();
    await expect(page.getByTestId('retail-price-notice')).toContainText('30');
    await expect(page.getByTestId('trip-configurator')).toBeVisible();
    await expect(page.getByTestId('trip-price')).toHaveText(/\d/);
    const dates = page.getByTestId('travel-dates').locator('li');
    expect(await dates.count()).toBeGreaterThan(10);
    await expect(dates.first()).toContainText(/\d/);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
    expect(ld['@type']).toBe('Product');
    expect(Number(ld.offers.lowPrice)).toBeGreaterThan(0);
  });

  test('the configurator is a form: a child, its birthday and a day, sent with the update button', async ({ page }) => {
    const sale = travelSale(1);
    await page.goto(`/voyages/p/${sale}/${sale * 100 + 3}`);
    await page.getByTestId('party-children').locator('button').last().click();
    await expect(page).toHaveURL(/step=add-c/);
    await expect(page.getByTestId('party-birthday')).toHaveCount(1);
    await expect(page.getByTestId('trip-blocks').locator('[data-field="participants.2"]')).toBeVisible();
    const totalTwo = await page.getByTestId('trip-total').textContent();

    await page.getByTestId('party-birthday').fill(childBirthday());
    await page.locator('details.trip__dates summary').click();
    const day = page.getByTestId('travel-dates').locator('input:not([disabled])').nth(3);
    const date = await day.getAttribute('value');
    await day.check();
    await page.locator('.config__apply').click();
    await expect(page.getByTestId('trip-blocks').locator('[data-field="participants.2"]')).toHaveCount(0);
    await expect(page.getByTestId('trip-blocks').locator('[data-field="checkin"]')).toHaveCount(0);
    await expect(page.getByTestId('party-birthday')).toHaveValue(childBirthday());
    await expect(page.getByTestId('travel-dates').locator(`input[value="${date}"]`)).toBeChecked();
    await expect(page.getByTestId('trip-dates')).not.toBeEmpty();
    await expect(page.getByTestId('trip-total')).not.toHaveText(totalTwo!);
    // Visitors sign in to book; the link brings them back to this product.
    await expect(page.getByTestId('trip-signin')).toBeVisible();
  });

  test('a checkout sent before its script runs shows the same checkout and puts no card in the address', async ({ page }) => {
    const sale = travelSale(1);
    await signInAsDemo(page, 1, `/t/p/${sale}/${sale * 100 + 3}`);
    await page.locator('details.trip__dates summary').click();
    await page.getByTestId('travel-dates').locator('input:not([disabled])').nth(2).check();
    await page.locator('.config__apply').click();
    await page.getByTestId('trip-book').click();
    await expect(page).toHaveURL(/\/checkout\?/);
    await page.locator('#card').fill('4242 4242 4242 4242');
    await page.locator('#travellers-0-first').fill('Zoé');
    await page.getByTestId('trip-pay').click();
    await expect(page.getByTestId('trip-summary')).toBeVisible();
    expect(page.url()).toContain('package=');
    expect(page.url()).not.toContain('4242');
    expect(page.url()).not.toContain('Zo');
  });
});

test('the travel error page leads back to the product it came from, and nowhere else', async ({ page }) => {
  await signInAsDemo(page, 1, '/t/error?source=%2Ft%2Fp%2F1025%2F102503');
  await expect(page.getByTestId('travel-error')).toBeVisible();
  await expect(page.getByTestId('travel-error-back')).toHaveAttribute('href', '/t/p/1025/102503');
  await expectNoViolations(page);
  await page.goto('/t/error?source=https%3A%2F%2Fevil.example%2F');
  await expect(page.getByTestId('travel-error-back')).toHaveAttribute('href', '/home/travel');
});

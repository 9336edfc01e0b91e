import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo, closePopins } from './session';
import { expectNoViolations } from './a11y';

// The address book and the delivery address at checkout (issue #12), as the first demo
// member (who already has a favourite address on every site), on three sites in three
// languages per project: a wrong zip code is refused with the spec's message, the right one
// is saved, made the favourite, preselected at checkout, and shown by the paid order.

const SITES = [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76];
const firstSale = (site: number) => (SITES.indexOf(site) + 1) * 1000 + 1;
const LANG: Record<number, string> = { 2: 'de', 3: 'es', 4: 'it', 73: 'fr', 76: 'nl' };
const texts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/address/${LANG[site] ?? 'fr'}.json`, import.meta.url), 'utf8'));

// Per site: a refused zip code with the message key it gets, the accepted one, a city,
// a phone typed plainly and as the site writes it (spec 001 §5).
const CASES: Record<number, { bad: string; badKey: string; zip: string; shown: string; city: string; phone: string; phoneShown: string }> = {
  1: { bad: '7500', badKey: 'errors.address.wrong_zipcode.notification', zip: '69002', shown: '69002', city: 'Lyon', phone: '0478000000', phoneShown: '04 78 00 00 00' },
  2: { bad: '27498', badKey: 'errors.address.forbidden_zipcode.notification', zip: '80331', shown: '80331', city: 'München', phone: '08912345678', phoneShown: '08 912345678' },
  76: { bad: '1011 SA', badKey: 'errors.address.forbidden_zipcode.notification', zip: '3511ab', shown: '3511 AB', city: 'Utrecht', phone: '0301234567', phoneShown: '03 01 23 45 67' },
  3: { bad: '35001', badKey: 'errors.address.forbidden_zipcode.notification', zip: '08001', shown: '08001', city: 'Barcelona', phone: '612345678', phoneShown: '612 345 678' },
  4: { bad: '2012', badKey: 'errors.address.wrong_zipcode.notification', zip: '00118', shown: '00118', city: 'Roma', phone: '3123456789', phoneShown: '312 3456789' },
  73: { bad: 'L-10', badKey: 'errors.address.wrong_zipcode.notification', zip: 'L-1009', shown: '1009', city: 'Luxembourg', phone: '621123456', phoneShown: '62 11 23 45 6' },
};
const sitesFor = (project: string) => (project === 'desktop' ? [1, 2, 76] : [3, 4, 73]);
const letters = () => Array.from({ length: 6 }, () => 'abcdefghijklmnop'[Math.floor(Math.random() * 16)]).join('');

async function fillAddress(page: Page, lastName: string, zip: string, site: number) {
  const c = CASES[site];
  const form = page.locator('#address-form').getByTestId('address-form');
  await form.getByTestId('address-firstName').fill('Zoë');
  await form.getByTestId('address-lastName').fill(lastName);
  await form.getByTestId('address-details').fill('5 Avenue Test');
  await form.getByTestId('address-zipCode').fill(zip);
  await form.getByTestId('address-city').fill(c.city);
  await form.getByTestId('address-phone').fill(c.phone);
  return form;
}

for (const index of [0, 1, 2]) {
  test(`address book → favourite → preselected at checkout → order detail, site #${index + 1} of the project`, async ({ page }, info) => {
    const site = sitesFor(info.project.name)[index];
    const c = CASES[site];
    const t = texts(site);
    const lastName = `Essai ${letters()}`;
    await signInAsDemo(page, site, '/postsales/myaccount/addresses/');
    await page.goto('/postsales/myaccount/addresses/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // A wrong zip code: the spec's message, the field flagged, nothing saved.
    const before = await page.getByTestId('address').count();
    const form = await fillAddress(page, lastName, c.bad, site);
    // The phone is grouped as the site writes it while typing.
    await expect(form.getByTestId('address-phone')).toHaveValue(c.phoneShown);
    await form.getByTestId('address-save').click();
    await expect(form.getByTestId('address-form-error')).toHaveText(t[c.badKey]);
    await expect(form.getByTestId('address-zipCode')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolations(page);
    await page.reload();
    await expect(page.getByTestId('address')).toHaveCount(before);

    // The right one: saved, listed, not yet the favourite.
    const again = await fillAddress(page, lastName, c.zip, site);
    await again.getByTestId('address-save').click();
    await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.saved']);
    const card = page.getByTestId('address').filter({ hasText: lastName });
    await expect(card).toContainText(c.shown);
    await expect(card).toContainText(c.phoneShown);
    await expect(card).toHaveAttribute('data-favorite', 'false');
    await card.getByTestId('address-make-favorite').click();
    await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.favorite']);
    await expect(page.getByTestId('address').filter({ hasText: lastName })).toHaveAttribute('data-favorite', 'true');
    await expect(page.locator('[data-testid="address"][data-favorite="true"]')).toHaveCount(1);
    await expectNoViolations(page);

    // Buy an item: the new favourite is the delivery address chosen.
    const sale = firstSale(site);
    await page.goto(`/product/${sale}/${sale * 100 + 12 + index}`);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await page.locator('[data-testid="product-option"]:not([disabled])').first().check();
    await page.getByTestId('add-to-cart').click();
    await expect(page.getByTestId('added-to-cart')).toBeVisible();
    await page.goto('/cart');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const chosen = page.getByTestId('delivery-option').filter({ hasText: lastName });
    await expect(chosen.locator('input[type="radio"]')).toBeChecked();
    await page.getByTestId('checkout').click();
    await page.getByTestId('card-number').fill('4242 4242 4242 4242');
    await page.getByTestId('pay').click();
    await expect(page.getByTestId('order-confirmed')).toBeVisible();

    // The order detail shows where it goes.
    await page.goto('/my-orders');
    await page.getByTestId('order').first().getByRole('link').first().click();
    await expect(page).toHaveURL(/\/my-orders\/fs\/\d+$/);
    const delivery = page.getByTestId('order-delivery');
    await expect(delivery).toContainText(lastName);
    await expect(delivery).toContainText(`${c.shown} ${c.city}`);

    // Deleting the address later leaves the order as it was.
    await page.goto('/postsales/myaccount/addresses/');
    page.once('dialog', (d) => d.accept());
    await page.getByTestId('address').filter({ hasText: lastName }).getByTestId('address-delete').click();
    await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.deleted']);
    await page.goBack();
    await page.goto('/my-orders');
    await page.getByTestId('order').first().getByRole('link').first().click();
    await expect(page.getByTestId('order-delivery')).toContainText(lastName);
  });
}

test('without scripts the address form posts, keeps what was typed and names the zip code', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies([{ name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! }]);
  const page = await context.newPage();
  await page.goto('/gr/authentication?site=4&ReturnUrl=%2Fpostsales%2Fmyaccount%2Faddresses%2F');
  await page.getByTestId('email-form').locator('input[name="email"]').fill('demo2@rosace.test');
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill('Rosace-demo-2026');
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
  await page.goto('/postsales/myaccount/addresses/');
  const t = texts(4);
  const lastName = `Senza ${letters()}`;
  const form = await fillAddress(page, lastName, '23041', 4);
  await form.getByTestId('address-save').click();
  await expect(page.getByTestId('address-form-error')).toHaveText(t['errors.address.forbidden_zipcode.notification']);
  await expect(page.getByTestId('address-lastName')).toHaveValue(lastName);
  await page.getByTestId('address-zipCode').fill('20121');
  await page.getByTestId('address-city').fill('Milano');
  await page.getByTestId('address-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.saved']);
  await expect(page.getByTestId('address').filter({ hasText: lastName })).toContainText('312 3456789');
  await context.close();
});

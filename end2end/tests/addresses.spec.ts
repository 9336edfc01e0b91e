import { test, expect } from './fixtures';
import { signInAsDemo, closePopins } from './session';
import { buyWithFavouriteAddress, favouriteAddress, fillAddress, letters, orderShowsAddress, texts } from './member-steps';
import { expectNoViolations } from './a11y';

// The address book and the delivery address at checkout as the first demo
// member, who already has a favourite address: an order keeps its copy of the address once
// the address is deleted; the form without scripts. The journey from a wrong zip code to
// the order detail runs on six sites in member-journey.spec.ts.

test('a paid order keeps its delivery address when the address is deleted', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 4;
  const t = texts(site);
  const lastName = `Essai ${letters()}`;
  await signInAsDemo(page, site, '/postsales/myaccount/addresses/');
  await favouriteAddress(page, site, lastName);
  await buyWithFavouriteAddress(page, site, lastName, 12);
  await orderShowsAddress(page, site, lastName);

  await page.goto('/postsales/myaccount/addresses/');
  page.once('dialog', (d) => d.accept());
  await page.getByTestId('address').filter({ hasText: lastName }).getByTestId('address-delete').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.deleted']);
  await expect(page.getByTestId('address').filter({ hasText: lastName })).toHaveCount(0);
  await page.goto('/my-orders');
  await page.getByTestId('order').first().getByRole('link').first().click();
  await expect(page.getByTestId('order-delivery')).toContainText(lastName);
});

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
  const form = await fillAddress(page, 4, lastName, '23041');
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

test('the address form offers the city of the zip code typed', async ({ page }, info) => {
  // Cities by zip code: Strasbourg then Nantes on the French site, Brussels
  // then Antwerp on the Belgian one.
  const [site, zip, city, next, nextCity] = info.project.name === 'desktop'
    ? [1, '67000', 'Strasbourg', '44000', 'Nantes']
    : [70, '1000', 'Bruxelles', '2000', 'Antwerpen'];
  await signInAsDemo(page, site);
  await page.goto('/postsales/myaccount/addresses/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const form = page.locator('#address-form').getByTestId('address-form');
  const zipField = form.getByTestId('address-zipCode');
  const cityField = form.getByTestId('address-city');
  await zipField.pressSequentially(zip);
  await expect(cityField).toHaveValue(city);
  await expect(form.locator('datalist option')).toHaveCount(1);
  // A city the member writes stays theirs when the code changes; the list follows the code.
  await cityField.fill('Ma ville');
  await zipField.fill('');
  await zipField.pressSequentially(next);
  await expect(form.locator('datalist option').first()).toHaveAttribute('value', nextCity);
  await expect(cityField).toHaveValue('Ma ville');
  await expectNoViolations(page);
});

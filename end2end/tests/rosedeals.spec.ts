import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { signInAsDemo, DEMO_EMAIL, DEMO_PASSWORD } from './session';
import { axeViolations, expectNoViolations } from './a11y';
import { PASSWORD, addAddress, memberEmail, register, signedIn } from './member-steps';

// Rose deals, one site per project (desktop: site 73 in French, phone: site 3 in
// Spanish): a deal bought from the rose-deals home through the cart (the home shows it in
// the media basket first), its voucher on the
// ongoing page, its own page (/rosedeals/order/{basketId}; an unknown one is a 404) and its
// print page, a retry with scripts (a new code, then the ongoing deals' page 1), a refund
// refused for a wrong IBAN (the form says so in the site's language) then done with a
// right one, and the refund's amount on the result page, whose tabs count both lists
// fetched again (one order moved to the history). Axe on every page on the way.

const SITES = [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76];
const dealSale = (site: number) => (SITES.indexOf(site) + 1) * 1000 + 900;
const LANG: Record<number, string> = { 73: 'fr', 3: 'es', 76: 'nl' };
const texts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/rosedeals/${LANG[site]}.json`, import.meta.url), 'utf8'));
const shopTexts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${LANG[site]}.json`, import.meta.url), 'utf8'));

test('a rose deal bought, its voucher printed, a wrong IBAN refused, the refund done', async ({ page }, info) => {
  const desktop = info.project.name === 'desktop';
  const site = desktop ? 73 : 3;
  const t = texts(site);
  // A member no other spec pays with on these sites.
  await signInAsDemo(page, site, '/', DEMO_EMAIL);

  // The rose-deals home lists the site's deals, server-rendered.
  await page.goto('/gr/home/rosedeals');
  await expect(page.getByTestId('deal-sale')).not.toHaveCount(0);
  expect(await page.getByTestId('deal').count()).toBeGreaterThanOrEqual(6);
  await expectNoViolations(page);
  await page.goto('/rosedeals');
  const deal = page.locator(`[data-testid="deal"][data-item-id="${dealSale(site) * 100 + 3}"]`);
  await expect(deal).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const optionId = await deal.getAttribute('data-option-id');
  await deal.getByTestId('add-to-cart').click();
  await expect(deal.getByTestId('added-to-cart')).toBeVisible();

  // The deals home shows the media basket with the deal, and the way to the cart.
  await page.goto('/rosedeals');
  const basket = page.getByTestId('deal-basket');
  await expect(basket.locator(`[data-testid="deal-basket-line"][data-product-id="${optionId}"]`)).toBeVisible();
  await expectNoViolations(page);
  await basket.getByTestId('deal-basket-cart').click();
  await expect(page).toHaveURL(/\/cart/);

  // Paid through the ordinary cart, as a voucher: no size, no
  // shipping line, no delivery step; the confirmation leads to the vouchers, not to a
  // parcel to wait for.
  const shop = shopTexts(site);
  const line = page.getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line.locator('.cart-line__meta')).toHaveText(shop['cart.line.quantity'].replace('{quantity}', '1'));
  await expect(page.getByTestId('cart-shipping')).toHaveCount(0);
  await expect(page.getByTestId('cart-delivery')).toBeHidden();
  const paid = (await page.getByTestId('cart-total').textContent())!.trim();
  await expect(line.locator('.cart-line__price')).toHaveText(paid);
  await page.getByTestId('checkout').click();
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('order-confirmed')).toBeVisible();
  const confirmed = shop['cart.paid.vouchers'].split('{order}');
  await expect(page.getByTestId('order-confirmed-text')).toContainText(confirmed[1].trim());
  await expect(page.getByTestId('order-confirmed-next')).toHaveAttribute('href', '/rosedeals/ongoing');
  await expectNoViolations(page);

  // Ongoing: the order with its voucher.
  await page.goto('/rosedeals/ongoing');
  const order = page.getByTestId('deal-order').first();
  await expect(order).toBeVisible();
  const code = (await order.getByTestId('deal-voucher-code').first().textContent())!.trim();
  expect(code).toMatch(/^RD-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await expectNoViolations(page);

  // The print page shows the code and a print button.
  const href = (await order.getByTestId('deal-print').getAttribute('href'))!;
  const printPage = await page.context().newPage();
  // The browser's print dialog is counted, not opened.
  await printPage.addInitScript(() => {
    const w = window as unknown as { printed: number };
    w.printed = 0;
    window.print = () => void w.printed++;
  });
  await printPage.goto(href);
  await expect(printPage.getByTestId('print-vouchers')).toContainText(code);
  await expect(printPage.locator('#print')).toBeVisible();
  // The button prints (the print module; the page's policy runs nothing inline), and only
  // the button: this page does not print on its own.
  const printed = () => printPage.evaluate(() => (window as unknown as { printed: number }).printed);
  await printPage.waitForLoadState('load');
  expect(await printed()).toBe(0);
  await printPage.locator('#print').click();
  await expect.poll(printed).toBe(1);
  // A standalone page without the app's hydration marker: axe directly.
  expect(await axeViolations(printPage)).toEqual([]);
  await printPage.close();

  // The tabs count both lists, fetched together.
  const count = async (tab: string) => Number(await page.getByTestId(tab).getAttribute('data-count'));
  const ongoing = await count('deal-tab-ongoing');
  const history = await count('deal-tab-history');
  expect(ongoing).toBeGreaterThanOrEqual(1);

  // The order's own page: its vouchers with code, print, refund and contact links.
  const basketId = await order.getAttribute('data-basket-id');
  await order.getByTestId('deal-order-link').click();
  await expect(page).toHaveURL(new RegExp(`/rosedeals/order/${basketId}$`));
  const alone = page.getByTestId('deal-order');
  await expect(alone.getByTestId('deal-voucher-code').first()).toHaveText(code);
  await expect(alone.getByTestId('deal-print')).toHaveAttribute('href', `/rosedeals/print/${basketId}`);
  await expect(alone.getByTestId('deal-contact-link')).toHaveAttribute('href', `/rosedeals/contact-form?basketId=${basketId}`);
  await expectNoViolations(page);
  // No such basket (or another member's): a 404 with the not-found notice.
  const missing = await page.goto('/rosedeals/order/987654321');
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId('deal-not-found')).toBeVisible();
  await expectNoViolations(page);
  await page.goto(`/rosedeals/order/${basketId}`);

  // Retry with scripts: the voucher re-issued, then the ongoing deals' page 1, rendered
  // from both lists fetched again (the same counts).
  await page.getByTestId('deal-order').getByTestId('deal-refund-link').click();
  await expect(page).toHaveURL(/\/rosedeals\/refund\?basketId=\d+$/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const retry = page.getByTestId('retry-form');
  await retry.locator(`input[name="vouchers"][value="${code}"]`).check();
  await retry.getByTestId('retry-submit').click();
  await expect(page).toHaveURL(/\/rosedeals\/ongoing\?notice=rosedeals\.retry\.done/);
  await expect(page.getByTestId('rosedeals-notice')).toHaveText(t['rosedeals.retry.done']);
  const again = page.locator(`[data-testid="deal-order"][data-basket-id="${basketId}"]`);
  const fresh = (await again.getByTestId('deal-voucher-code').first().textContent())!.trim();
  expect(fresh).not.toBe(code);
  expect(await count('deal-tab-ongoing')).toBe(ongoing);
  expect(await count('deal-tab-history')).toBe(history);

  // Refund: a wrong IBAN is refused with the form's message, a right one refunds.
  await again.getByTestId('deal-refund-link').click();
  await expect(page).toHaveURL(/\/rosedeals\/refund\?basketId=\d+$/);
  const form = page.getByTestId('refund-form');
  await form.getByTestId('refund-firstName').fill('Marie');
  await form.getByTestId('refund-lastName').fill('Curie');
  await form.getByTestId('refund-city').fill(desktop ? 'Paris' : 'Madrid');
  await form.getByTestId('refund-country').fill(desktop ? 'FR' : 'ES');
  await expectNoViolations(page);
  await form.getByTestId('refund-iban').fill('FR15 2004 1010 0505 0001 3M02 606');
  await form.getByTestId('refund-submit').click();
  await expect(form.getByTestId('refund-iban-error')).toHaveText(t['rosedeals.errors.invalid_iban']);
  await expect(form.getByTestId('refund-iban')).toHaveAttribute('aria-invalid', 'true');
  await expectNoViolations(page);
  await form.getByTestId('refund-iban').fill('FR14 2004 1010 0505 0001 3M02 606');
  // Review N1: an IBAN the wallet does not hold needs the password.
  await form.getByTestId('reauth-refund-reauth').fill(DEMO_PASSWORD);
  await form.getByTestId('refund-submit').click();

  await expect(page).toHaveURL(/\/rosedeals\/refund-result\?basketId=\d+(&site=\d+)?$/);
  await expect(page.getByTestId('refund-amount')).toBeVisible();
  await expect(page.getByTestId('refund-amount')).toContainText('€');
  // Every cent paid comes back (no shipping was kept).
  await expect(page.getByTestId('refund-amount')).toContainText(paid);
  // After the refund both lists were fetched again: one order moved from one to the other.
  expect(await count('deal-tab-ongoing')).toBe(ongoing - 1);
  expect(await count('deal-tab-history')).toBe(history + 1);
  await expectNoViolations(page);

  // The order is archived now.
  await page.goto('/rosedeals/history');
  await expect(page.locator(`[data-testid="deal-order"][data-basket-id="${basketId}"]`)).toBeVisible();
  await expectNoViolations(page);

  // The help form offers the deal's sale and order by their names, longer than a phone is
  // wide: they once made the form, the page and the header 640 px wide on a 412 px screen
  // (the account menu could not be opened there). expectNoViolations checks the reflow.
  await page.goto('/helpform');
  await expect(page.getByTestId('help-sale').locator('option')).not.toHaveCount(1);
  await expectNoViolations(page);
});

// Without scripts: the retry, the contact message and the refund post as plain
// multipart forms and come back with the result or the refusal in the site's language. A
// member of its own (registered here) buys a deal with scripts on, then a browser without
// scripts shares the session.
const here = (p: import('@playwright/test').Page) => {
  const u = new URL(p.url());
  return u.pathname + u.search;
};

test('the refund, retry and contact forms work without scripts', async ({ page, browser, baseURL }, info) => {
  test.setTimeout(120_000);
  const site = info.project.name === 'desktop' ? 73 : 76;
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'deals-nojs');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/');
  await addAddress(page, site, 'Sansjs');
  await page.goto('/rosedeals');
  const deal = page.locator(`[data-testid="deal"][data-item-id="${dealSale(site) * 100 + 4}"]`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await deal.getByTestId('add-to-cart').click();
  await expect(deal.getByTestId('added-to-cart')).toBeVisible();
  await page.goto('/cart');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('checkout').click();
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('order-confirmed')).toBeVisible();

  const noJs = await browser.newContext({ ...info.project.use, baseURL, javaScriptEnabled: false });
  await noJs.addCookies(await page.context().cookies());
  const p = await noJs.newPage();
  try {
    await p.goto('/rosedeals/ongoing');
    const order = p.getByTestId('deal-order').first();
    const code = (await order.getByTestId('deal-voucher-code').first().textContent())!.trim();

    // Retry: the voucher chosen, a new code.
    await order.getByTestId('deal-refund-link').click();
    const retry = p.getByTestId('retry-form');
    await retry.locator(`input[name="vouchers"][value="${code}"]`).check();
    await retry.getByTestId('retry-submit').click();
    await expect(p).toHaveURL(/\/rosedeals\/ongoing\?notice=rosedeals\.retry\.done/);
    await expect(p.getByTestId('rosedeals-notice')).toHaveText(t['rosedeals.retry.done']);
    const fresh = (await p.getByTestId('deal-order').first().getByTestId('deal-voucher-code').first().textContent())!.trim();
    expect(fresh).not.toBe(code);
    await expectNoViolations(page, here(p)); // the same server page, checked where axe can run

    // Contact: without a profile, "Missing values" in the form; with one, sent.
    await p.goto('/rosedeals/contact-form');
    const contact = p.getByTestId('contact-form');
    await contact.getByTestId('contact-subject').fill('Code');
    await contact.getByTestId('contact-message').fill('Le magasin refuse mon code.');
    await contact.locator(`input[name="vouchers"][value="${fresh}"]`).check();
    await contact.getByTestId('contact-submit').click();
    await expect(p).toHaveURL(/\/rosedeals\/contact-form\?error=rosedeals\.errors\.missing_values/);
    await expect(p.getByTestId('contact-form').locator('[data-form-error]')).toHaveText(t['rosedeals.errors.missing_values']);
    await expectNoViolations(page, here(p)); // the same server page, checked where axe can run
    const again = p.getByTestId('contact-form');
    await again.getByTestId('contact-subject').fill('Code');
    await again.getByTestId('contact-message').fill('Le magasin refuse mon code.');
    await again.locator(`input[name="vouchers"][value="${fresh}"]`).check();
    for (const [field, value] of [['firstName', 'Marie'], ['lastName', 'Curie'], ['city', 'Lille'], ['country', 'FR']]) {
      await again.getByTestId(`contact-${field}`).fill(value);
    }
    await again.getByTestId('contact-submit').click();
    await expect(p).toHaveURL(/\/rosedeals\/mail/);
    await expect(p.getByTestId('mail-sent')).toHaveText(t['rosedeals.mail.text']);

    // Refund: a wrong IBAN comes back on its field, a right one leads to the amount.
    await p.goto('/rosedeals/ongoing');
    await p.getByTestId('deal-order').first().getByTestId('deal-refund-link').click();
    const fill = async () => {
      const form = p.getByTestId('refund-form');
      for (const [field, value] of [['firstName', 'Marie'], ['lastName', 'Curie'], ['city', 'Lille'], ['country', 'FR']]) {
        await form.getByTestId(`refund-${field}`).fill(value);
      }
      return form;
    };
    let form = await fill();
    await form.getByTestId('refund-iban').fill('FR15 2004 1010 0505 0001 3M02 606');
    await form.getByTestId('refund-content').fill('Zoé ; « merci »');
    await form.locator('#refund-isSuspended').check();
    await form.getByTestId('reauth-refund-reauth').fill('not kept');
    await form.getByTestId('refund-submit').click();
    form = p.getByTestId('refund-form');
    await expect(form.getByTestId('refund-iban-error')).toHaveText(t['rosedeals.errors.invalid_iban']);
    await expect(form.getByTestId('refund-iban')).toHaveAttribute('aria-invalid', 'true');
    // What was typed comes back (the draft cookie), the password aside.
    for (const [field, value] of [['firstName', 'Marie'], ['lastName', 'Curie'], ['city', 'Lille'], ['country', 'FR']]) {
      await expect(form.getByTestId(`refund-${field}`)).toHaveValue(value);
    }
    await expect(form.getByTestId('refund-iban')).toHaveValue('FR15 2004 1010 0505 0001 3M02 606');
    await expect(form.getByTestId('refund-content')).toHaveValue('Zoé ; « merci »');
    await expect(form.locator('#refund-isSuspended')).toBeChecked();
    await expect(form.locator('#refund-storeIban')).not.toBeChecked();
    await expect(form.getByTestId('reauth-refund-reauth')).toHaveValue('');
    await expectNoViolations(page, here(p)); // the same server page, checked where axe can run
    await form.locator('#refund-isSuspended').uncheck();
    await form.getByTestId('refund-iban').fill('FR14 2004 1010 0505 0001 3M02 606');
    await form.getByTestId('reauth-refund-reauth').fill(PASSWORD);
    await form.getByTestId('refund-submit').click();
    await expect(p).toHaveURL(/\/rosedeals\/refund-result\?basketId=\d+(&site=\d+)?$/);
    await expect(p.getByTestId('refund-amount')).toContainText('€');
  } finally {
    await noJs.close();
  }
});

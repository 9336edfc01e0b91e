import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { signIn } from './backoffice-steps';
import { addAddress, addToCart, buy, fillRegistration, firstSale, memberEmail, otherBrowser, register, signedIn } from './member-steps';

// The back office's order desk and the rest of its new pages, desktop and phone:
// - a member buys; customer care ships and delivers it from the order's page; the member
//   asks to return a line; care accepts it, marks it received and refunds a goodwill
//   amount (a refused amount first); My orders follows each step and shows the refund;
// - a merchandiser creates a code campaign through the form (a bad one refused first) and
//   a member's basket takes the code; the admin's tour of the members, experiments, help
//   articles and rose-deal retries pages.
// axe on every page kind on the way.

const LANG: Record<number, string> = { 1: 'fr', 2: 'de' };
const orderTexts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/orders/${LANG[site]}.json`, import.meta.url), 'utf8'));
const digits = (s: string | null) => (s ?? '').replace(/\D/g, '');
const noIslands = { islands: false };

/** Moves the open order page to `status` with the button of that status. */
async function move(op: Page, label: string, expected: string) {
  await op.locator('#move').getByRole('button', { name: label, exact: true }).click();
  await expect(op.locator('.bo-notice')).toContainText('Order moved');
  await expect(op.locator('#order-facts')).toHaveAttribute('data-status', expected);
}

test('care ships, takes back and refunds an order; My orders follows', async ({ page, browser, baseURL }, info) => {
  test.setTimeout(180_000);
  const site = info.project.name === 'desktop' ? 1 : 2;
  const t = orderTexts(site);
  const email = memberEmail(site, info.project.name, 'desk-refund');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/');
  await addAddress(page, site, 'Guichet');
  const id = await buy(page, firstSale(site), 4);

  // Care finds the order by number and delivers it from its page.
  const desk = await otherBrowser(browser, baseURL);
  const op = desk.page;
  await signIn(op, 'care@rosace.test');
  await op.getByRole('link', { name: 'Orders', exact: true }).click();
  await op.getByLabel('Order number or member email').fill(`#${id}`);
  await op.getByLabel('Order number or member email').press('Enter');
  await expectNoViolations(op, undefined, noIslands);
  await op.locator(`tr[data-order="${id}"]`).getByRole('link').first().click();
  await expect(op.locator('#order-facts')).toContainText(email);
  await expectNoViolations(op, undefined, noIslands);
  await move(op, 'In preparation', 'in_preparation');
  await move(op, 'Shipped', 'shipped');
  await move(op, 'Received', 'received');

  // The member asks to return one line.
  await page.goto(`/my-orders/fs/${id}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'received');
  const form = page.getByTestId('returns-form');
  await form.getByTestId('return-reason').selectOption('size');
  await form.getByTestId('return-quantity').first().fill('1');
  await form.getByTestId('return-sub-reason').selectOption('too_big');
  await form.getByTestId('return-send').click();
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'return_requested');

  // The returns queue, oldest first: accept, receive.
  await op.getByRole('link', { name: 'Returns and refunds' }).first().click();
  await expectNoViolations(op, undefined, noIslands);
  await op.locator(`#returns tr[data-order="${id}"]`).getByRole('link').click();
  await move(op, 'Return accepted', 'return_requested_accepted');
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveText(t['orders.status.return_requested_accepted']);
  await move(op, 'Return received', 'return_received');

  // The refund: the returned line proposed; more than was paid refused, nothing changed.
  const amount = op.getByLabel(/^Amount to refund/);
  const proposed = Number((await amount.inputValue()).replace(',', '.'));
  expect(proposed).toBeGreaterThan(1);
  await amount.fill('100000');
  await op.locator('#move').getByRole('button', { name: 'Refund in progress', exact: true }).click();
  await expect(op.getByRole('alert')).toContainText('More than is left to refund');
  await expect(op.locator('#order-facts')).toHaveAttribute('data-status', 'return_received');
  await expect(amount).toHaveValue('100000');
  await expectNoViolations(op, undefined, noIslands);
  const goodwill = (proposed - 1).toFixed(2);
  await amount.fill(goodwill);
  await move(op, 'Refund in progress', 'refund_in_progress');
  await expect(amount).toHaveValue(goodwill);
  await move(op, 'Refunded', 'refunded');
  await expect(op.locator('#order-facts')).toContainText(goodwill);
  await desk.context.close();

  // My orders: refunded, with the amount care decided.
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'refunded');
  await expect(page.getByTestId('order-status')).toHaveText(t['orders.status.refunded']);
  expect(digits(await page.getByTestId('order-refunded').textContent())).toBe(digits(goodwill));
  await expectNoViolations(page);
});

test('a merchandiser makes a code campaign a basket takes; the admin tours the new pages', async ({ page, browser, baseURL }, info) => {
  test.setTimeout(180_000);
  const site = info.project.name === 'desktop' ? 1 : 2;
  const code = `E2E${Date.now().toString(36).toUpperCase()}${site}`;

  // The campaign, through the form: a bad value refused with what was typed kept.
  const desk = await otherBrowser(browser, baseURL);
  const op = desk.page;
  await signIn(op, 'merch@rosace.test');
  await op.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expectNoViolations(op, undefined, noIslands);
  await op.getByRole('link', { name: 'New campaign' }).click();
  await op.getByLabel('Name').fill(`Remise ${code}`);
  await op.getByLabel('Code', { exact: true }).fill(code);
  await op.getByLabel('Value').fill('250');
  await op.locator(`#site-${site}`).check();
  await op.getByRole('button', { name: 'Create the campaign' }).click();
  await expect(op.locator('[data-error-for="value"]')).toContainText('A percentage is a whole number from 1 to 100.');
  await expect(op.getByLabel('Code', { exact: true })).toHaveValue(code);
  await expectNoViolations(op, undefined, noIslands);
  await op.getByLabel('Value').fill('10');
  await op.getByRole('button', { name: 'Create the campaign' }).click();
  await expect(op.locator('.bo-notice')).toContainText('Campaign created.');
  await expectNoViolations(op, undefined, noIslands);
  const campaign = op.url();

  // A member's basket takes the code.
  const email = memberEmail(site, info.project.name, 'desk-campaign');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/');
  await addToCart(page, firstSale(site), 5);
  await page.goto('/cart');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('voucher-code').fill(code);
  await page.getByTestId('voucher-apply').click();
  await expect(page.getByTestId('cart-voucher')).toContainText(code);

  // Stopped from its page: the basket no longer has it.
  await op.goto(campaign);
  await op.getByRole('button', { name: 'Stop the campaign now' }).click();
  await expect(op.locator('.bo-notice')).toContainText('Campaign stopped.');
  // Printing the basket's vouchers reloads the basket (spec 000 §4): the stopped code
  // leaves it without a page reload, and the print link is there.
  await page.getByTestId('voucher-print').click();
  await expect(page.getByTestId('voucher-print-link')).toHaveAttribute('href', /\/vouchers\/print\//);
  await expect(page.getByTestId('cart-voucher')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('cart-voucher')).toHaveCount(0);
  await desk.context.close();

  // The admin's tour: members (a member's page), experiments, help articles, retries.
  await signIn(page, 'admin@rosace.test');
  await page.getByRole('link', { name: 'Members', exact: true }).click();
  await page.getByLabel(/^Email \(or part of it\)/).fill(email);
  await page.getByLabel(/^Email \(or part of it\)/).press('Enter');
  await expectNoViolations(page, undefined, noIslands);
  await page.locator('tr[data-member]').getByRole('link').first().click();
  await expect(page.locator('main')).toContainText(email);
  await expectNoViolations(page, undefined, noIslands);
  await page.getByRole('link', { name: 'Experiments', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Experiments');
  await expectNoViolations(page, undefined, noIslands);
  await page.getByRole('link', { name: 'Help articles', exact: true }).click();
  await expectNoViolations(page, undefined, noIslands);
  await page.locator('#articles tbody a').first().click();
  await expect(page.getByLabel('Title')).not.toHaveValue('');
  await expectNoViolations(page, undefined, noIslands);
  await page.goto('/backoffice/returns?status=retries');
  await expect(page.locator('nav.bo-tabs a[aria-current="page"]')).toContainText('Rose-deal retries');
  await expectNoViolations(page, undefined, noIslands);
});

test('marketing sees which link brought a registration and whether it bought', async ({ page, browser, baseURL }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const campaign = `e2e-${info.project.name}-${Date.now()}`;
  // A visitor follows a newsletter link and registers through the real form.
  await page.goto(`/gr/authentication?site=${site}&utm_source=newsletter&utm_medium=email&utm_campaign=${campaign}&formid=12`);
  const email = memberEmail(site, info.project.name, 'utm');
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  const form = page.getByTestId('register-form');
  await expect(form).toBeVisible();
  await expect(form.locator('input[name="utm_campaign"]')).toHaveValue(campaign);
  await fillRegistration(form, site, 'Maëlle', "D'Arcy");
  await expect(page.getByTestId('register-done')).toContainText(email);

  // The merchandiser opens the report from the menu and groups by campaign on that site.
  const desk = await otherBrowser(browser, baseURL);
  const op = desk.page;
  await signIn(op, 'merch@rosace.test');
  await op.getByRole('link', { name: 'Registrations', exact: true }).click();
  await expect(op.getByRole('heading', { level: 1 })).toHaveText('Registrations by source');
  await op.getByLabel('Group by').selectOption('campaign');
  await op.getByLabel('Site', { exact: true }).selectOption(String(site));
  await op.getByRole('button', { name: 'Show' }).click();
  await expect(op).toHaveURL(/by=campaign/);
  const row = op.locator(`#registrations tr[data-value="${campaign}"]`);
  await expect(row.locator('td')).toHaveText(['1', '0', '0', '0.0 %']);
  await expectNoViolations(op, undefined, noIslands);
  // By landing form, the same registration under form 12; a period the wrong way round is said.
  await op.getByLabel('Group by').selectOption('form');
  await op.getByRole('button', { name: 'Show' }).click();
  await expect(op.locator('#registrations tr[data-value="12"] td').first()).not.toHaveText('0');
  await op.getByLabel('From (day)').fill('2026-12-31');
  await op.getByLabel('To (day)').fill('2026-01-01');
  await op.getByRole('button', { name: 'Show' }).click();
  await expect(op.getByRole('alert')).toHaveText('The first day comes after the last one.');
  await expectNoViolations(op, undefined, noIslands);
  await desk.context.close();
});

test("a partner's visitor who consents and registers later is credited to the partner", async ({ page, browser, baseURL }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const partner = `aff-${info.project.name}-${Date.now()}`;
  // The visitor follows a partner's link to the home and accepts the cookies there (a
  // first visit: no answer to the banner yet).
  await page.context().clearCookies({ name: 'OptanonConsent' });
  await page.goto(`/?site=${site}&partnerid=${partner}`);
  await page.getByTestId('consent-accept').click();
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'rosace_partner')?.value).toBe(partner);
  expect(cookies.find((c) => c.name === 'rosace_partner')?.httpOnly).toBe(true);
  // Later in the hour, they register from a link that names no partner.
  await page.goto(`/gr/authentication?site=${site}`);
  const email = memberEmail(site, info.project.name, 'partner');
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  const form = page.getByTestId('register-form');
  await expect(form).toBeVisible();
  await fillRegistration(form, site, 'Jean-Pierre', 'Lefèvre');
  await expect(page.getByTestId('register-done')).toContainText(email);

  // Marketing sees the registration under the partner on that site.
  const desk = await otherBrowser(browser, baseURL);
  const op = desk.page;
  await signIn(op, 'merch@rosace.test');
  await op.getByRole('link', { name: 'Registrations', exact: true }).click();
  await op.getByLabel('Site', { exact: true }).selectOption(String(site));
  await op.getByRole('button', { name: 'Show' }).click();
  await expect(op.getByRole('heading', { name: 'What partners brought' })).toBeVisible();
  await expect(op.locator(`#partners tr[data-partner="${partner}"] td`)).toHaveText(['1', '0', '0', '0.00 EUR']);
  await expectNoViolations(op, undefined, noIslands);
  await desk.context.close();
});

test('a merchandiser makes an operation with its own selection; its link lands a member there', async ({ page, browser, baseURL }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const code = `E2E-${info.project.name.toUpperCase()}-${Date.now() % 1_000_000}`;
  // Two products of the site's first sale, as a member sees them.
  const email = memberEmail(site, info.project.name, 'opsel');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, `/gr/catalog/${firstSale(site)}`);
  const ids = await page.locator('li.item-tile').evaluateAll((tiles) => tiles.slice(0, 2).map((t) => t.getAttribute('data-item-id')!));
  expect(ids).toHaveLength(2);

  // The merchandiser creates the operation (a wrong end date first) and its selection.
  const desk = await otherBrowser(browser, baseURL);
  const op = desk.page;
  await signIn(op, 'merch@rosace.test');
  await op.getByRole('link', { name: 'Operations', exact: true }).click();
  await expect(op.locator('#operations tr[data-operation="SELECTION"]').first()).toBeVisible();
  await op.getByRole('link', { name: 'New operation' }).click();
  await expectNoViolations(op, undefined, noIslands);
  await op.getByLabel('Site', { exact: true }).selectOption(String(site));
  await op.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
  await op.getByLabel('Title', { exact: true }).fill('Avant-première');
  await op.getByLabel('Ends (UTC)').fill('2020-01-01T00:00');
  await op.getByRole('button', { name: 'Create the operation' }).click();
  await expect(op.locator('[data-error-for="ends_at"]')).toHaveText('The end comes after the start.');
  await expect(op.getByLabel('Code', { exact: true })).toHaveValue(code.toLowerCase());
  await op.getByLabel('Ends (UTC)').fill('2099-01-01T00:00');
  await op.getByRole('button', { name: 'Create the operation' }).click();
  await expect(op.locator('.bo-notice')).toHaveText('Operation created.');
  for (const id of ids) {
    await op.getByLabel('Add a product (its number)').fill(id);
    await op.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(op.locator(`#selection tr[data-product="${id}"]`)).toBeVisible();
  }
  await expectNoViolations(op, undefined, noIslands);
  // The title is changed afterwards; a home the site does not have is refused first.
  await op.getByRole('link', { name: 'Change the operation' }).click();
  await expect(op.getByLabel('Title', { exact: true })).toHaveValue('Avant-première');
  await op.getByLabel('Title', { exact: true }).fill('Avant-première, acte 2');
  await op.getByLabel('Lands on').selectOption('home');
  await op.getByLabel('Home name or sale number').fill('nulle-part');
  await op.getByRole('button', { name: 'Save' }).click();
  await expect(op.locator('[data-error-for="target"]')).toHaveText('This site has no home of that name.');
  await expect(op.getByLabel('Title', { exact: true })).toHaveValue('Avant-première, acte 2');
  await expectNoViolations(op, undefined, noIslands);
  await op.getByLabel('Home name or sale number').fill('default');
  await op.getByRole('button', { name: 'Save' }).click();
  await expect(op.locator('.bo-notice')).toHaveText('Operation saved.');
  await desk.context.close();

  // The member follows the link to the selection.
  await page.goto(`/operation/${code.toLowerCase()}`);
  await expect(page).toHaveURL(new RegExp(`/operation/${code}/selection`));
  await expect(page.getByTestId('operation-selection').locator('h1')).toHaveText('Avant-première, acte 2');
  await expect(page.locator('li.item-tile')).toHaveCount(2);
  await expectNoViolations(page);
});

import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { fillRegistration, memberEmail, otherBrowser, register, signedIn } from './member-steps';

// Marketing entry points, one site per project (desktop: site 1 in French,
// phone: site 2 in German): the brands place A–Z and its search without scripts, a brand
// alert from the list, an operation link (its cookie and its landing, an expired code
// explained), and sponsorship (the code and share link; a friend registering through the
// link is recorded as sponsored). Axe on each page.

const LANG: Record<number, string> = { 1: 'fr', 2: 'de' };
const texts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/marketing/${LANG[site]}.json`, import.meta.url), 'utf8'));
const siteOf = (project: string) => (project === 'desktop' ? 1 : 2);
const fold = (s: string) => s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');

test('brands place: A to Z, letter index and search without scripts', async ({ browser, baseURL }, info) => {
  const site = siteOf(info.project.name);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
  ]);
  const page = await context.newPage();
  await page.goto(`/brandsplace?site=${site}`);
  const brands = page.getByTestId('place-brand');
  const total = await brands.count();
  expect(total).toBeGreaterThan(3);
  // Sections in letter order, each name under its letter.
  const letters = await page.locator('[data-letter-section]').evaluateAll((s) => s.map((e) => e.getAttribute('data-letter-section')!));
  expect([...letters].sort((a, b) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)))).toEqual(letters);
  const first = page.locator('[data-letter-section]').first();
  const firstName = (await first.getByTestId('place-brand').first().getAttribute('data-name'))!;
  expect(fold(firstName)[0].toUpperCase()).toBe(letters[0]);
  // The index jumps to a letter.
  await page.locator(`.brandsplace__index a[data-letter="${letters[1]}"]`).click();
  await expect(page).toHaveURL(new RegExp(`#brands-${letters[1]}$`));

  // Search: the GET form, answered by the server.
  const query = firstName.split(' ')[0].toLowerCase();
  await page.locator('#brands-q').fill(query);
  await page.locator('#brands-q').press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(query)}`));
  const found = await page.getByTestId('place-brand').evaluateAll((r) => r.map((e) => e.getAttribute('data-name')!));
  expect(found.length).toBeGreaterThan(0);
  expect(found.length).toBeLessThan(total);
  for (const name of found) expect(fold(name)).toContain(fold(query));
  await expect(page.getByTestId('brandsplace-status')).toContainText(String(found.length));
  // A brand leads to its page.
  const link = page.getByTestId('place-brand').first().locator('a');
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/^\/b\/\d+$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.locator('h1')).toContainText(found[0]);
  await context.close();
});

test('brands place filters while typing, and a member follows a brand', async ({ page }, info) => {
  const site = siteOf(info.project.name);
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'brands');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/brandsplace');
  await expect(page.getByTestId('brandsplace')).toBeVisible();
  await expectNoViolations(page);

  // The page script filters in place (no reload) and keeps the address in step.
  const total = await page.getByTestId('place-brand').count();
  const name = (await page.getByTestId('place-brand').nth(1).getAttribute('data-name'))!;
  await page.locator('#brands-q').fill(name);
  await expect(page.locator('[data-testid="place-brand"]:visible')).not.toHaveCount(total);
  const visible = await page.locator('[data-testid="place-brand"]:visible').evaluateAll((r) => r.map((e) => e.getAttribute('data-name')));
  expect(visible).toContain(name);
  await expect(page).toHaveURL(/[?&]q=/);
  await page.locator('#brands-q').fill('');
  await expect(page.locator('[data-testid="place-brand"]:visible')).toHaveCount(total);

  // Follow: the notice, the button turns, the communications page lists the brand.
  const row = page.locator(`[data-testid="place-brand"][data-name="${name}"]`);
  const brandId = (await row.getAttribute('data-brand-id'))!;
  await row.getByTestId('brand-alert-toggle').click();
  await expect(page.getByTestId('brandsplace-notice')).toHaveText(t['brandsplace.notice.followed']);
  await expect(row).toHaveAttribute('data-followed', 'true');
  await expect(row.getByTestId('brand-alert-toggle')).toHaveText(t['brandsplace.unfollow']);
  await expectNoViolations(page);
  await page.goto('/communications');
  await expect(page.getByTestId('brands-followed').locator(`[data-brand-id="${brandId}"]`)).toBeVisible();
  // And stop following.
  await page.goto('/brandsplace');
  await page.locator(`[data-testid="place-brand"][data-brand-id="${brandId}"]`).getByTestId('brand-alert-toggle').click();
  await expect(page.getByTestId('brandsplace-notice')).toHaveText(t['brandsplace.notice.unfollowed']);
  await expect(page.locator(`[data-testid="place-brand"][data-brand-id="${brandId}"]`)).toHaveAttribute('data-followed', 'false');
});

test('an operation link records its code and lands; an expired one says so', async ({ page, context }, info) => {
  const site = siteOf(info.project.name);
  const t = texts(site);
  await page.goto(`/operation/BIENVENUE?site=${site}`);
  await expect(page).toHaveURL(/\/(\?site=\d+)?$/);
  const cookie = (await context.cookies()).find((c) => c.name === 'operationcode');
  expect(cookie?.value).toBe('BIENVENUE');
  expect(cookie?.httpOnly).toBe(true);

  await page.goto('/operation/ETE2019');
  await expect(page).toHaveURL(/\/operation\?error=operation\.expired/);
  await expect(page.getByTestId('operation-error')).toHaveText(t['operation.expired_code'].replace('{code}', 'ETE2019'));
  await expectNoViolations(page);
  // A visitor following a sale operation lands on the sale's open-door catalog (no sign-in
  // page), with the cookie.
  await page.goto(`/operation/VENTE-FLASH?site=${site}`);
  await expect(page).toHaveURL(/\/c\/[^/?]+\/\d+\/\d+/);
  expect(page.url()).not.toMatch(/authentication/);
  await expect(page.getByTestId('catalog-count')).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'operationcode')?.value).toBe('VENTE-FLASH');
  // Another code typed on that page: a sale operation lands a member on its sale.
  const email = memberEmail(site, info.project.name, 'operation');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/operation');
  await page.locator('#operation-code').fill('vente-flash');
  await page.locator('.operation__form button').click();
  await expect(page).toHaveURL(/\/catalog\/\d+\/\d+/);
  expect((await context.cookies()).find((c) => c.name === 'operationcode')?.value).toBe('VENTE-FLASH');
});

test('sponsorship: the code and share link; a friend registering through it is recorded', async ({ page, browser, baseURL }, info) => {
  const site = siteOf(info.project.name);
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'sponsor');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/gr/sponsorship');
  const code = (await page.getByTestId('sponsorship-code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  const link = await page.getByTestId('sponsorship-link').inputValue();
  expect(link).toContain(`/gr/registration?mgmcode=${code}&godfatherid=`);
  await expect(page.getByTestId('sponsorship-empty')).toHaveText(t['sponsorship.friends.empty']);
  await expectNoViolations(page);

  // The friend follows the link in their own browser and registers.
  const friend = await otherBrowser(browser, baseURL);
  const url = new URL(link);
  await friend.page.goto(`${url.pathname}${url.search}`);
  const friendEmail = memberEmail(site, info.project.name, 'friend');
  await friend.page.getByTestId('email-form').locator('input[name="email"]').fill(friendEmail);
  await friend.page.getByTestId('email-form').getByRole('button').click();
  const form = friend.page.getByTestId('register-form');
  await expect(form).toBeVisible();
  await expect(form.locator('input[name="sponsorshipCode"]')).toHaveValue(code);
  await fillRegistration(form, site, 'Amélie', 'Filleule');
  await expect(friend.page.getByTestId('register-done')).toContainText(friendEmail);
  await friend.context.close();

  // The sponsor sees the friend, waiting for a first order.
  await page.reload();
  const friendRow = page.getByTestId('sponsored-member');
  await expect(friendRow).toHaveCount(1);
  await expect(friendRow).toContainText('Amélie');
  await expect(friendRow).toContainText(t['sponsorship.friends.waiting']);
});

test('the brands place is one page: deeper paths are the 404 page, a trailing slash is the page', async ({ page }) => {
  for (const path of ['/brandsplace/anything', '/gr/brandsplace/a/b']) {
    const res = await page.goto(`${path}?site=1`);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
  }
  const res = await page.goto('/brandsplace/?site=1');
  expect(res?.status()).toBe(200);
  await expect(page.getByTestId('brandsplace')).toBeVisible();
  expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/brandsplace(\?|$)/);
});

test("an operation's own selection: products of several sales, narrowed by universe", async ({ page }, info) => {
  const site = siteOf(info.project.name);
  const main: Record<string, string> = JSON.parse(readFileSync(new URL(`../../app/locales/${LANG[site]}.json`, import.meta.url), 'utf8'));
  const email = memberEmail(site, info.project.name, 'selection');
  expect(await register(page, site, email)).toBe(201);
  // The operation link lands the member on its selection.
  await signedIn(page, site, email, '/operation/selection');
  await expect(page).toHaveURL(/\/operation\/SELECTION\/selection/);
  const selection = page.getByTestId('operation-selection');
  await expect(selection.locator('h1')).toHaveText(site === 1 ? 'La sélection de la semaine' : 'Die Auswahl der Woche');
  const tiles = selection.getByTestId('items-grid').locator('li.item-tile');
  await expect(tiles).toHaveCount(6);
  const nav = page.getByTestId('selection-universes');
  await expect(nav).toHaveAttribute('aria-label', main['operation.selection.universes']);
  await expect(nav.locator('a[aria-current="page"]')).toHaveText(main['operation.selection.all']);
  await expectNoViolations(page);
  // A universe narrows it, a link that works without scripts.
  const first = nav.locator('a[data-universe]:not([data-universe=""])').first();
  const id = (await first.getAttribute('data-universe'))!;
  await first.click();
  await expect(page).toHaveURL(new RegExp(`universe=${id}`));
  await expect(nav.locator('a[aria-current="page"]')).toHaveAttribute('data-universe', id);
  const some = await tiles.count();
  expect(some).toBeGreaterThan(0);
  expect(some).toBeLessThanOrEqual(6);
  // A product of the selection opens in its sale.
  await tiles.first().locator('a').first().click();
  await expect(page).toHaveURL(/\/product\/\d+\/\d+/);
});

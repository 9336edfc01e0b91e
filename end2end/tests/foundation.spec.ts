import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';

// (a) Anonymous home on two sites: complete, localized server HTML; then hydration.
test.describe('home page without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  const sites = [
    { id: 1, locale: 'fr-FR', login: 'Se connecter', from: /Dès \d+,\d{2}\u00a0€/ },
    { id: 2, locale: 'de-DE', login: 'Anmelden', from: /\d+,\d{2}\u00a0€/ },
  ];
  for (const site of sites) {
    test(`site ${site.id} is localized in the server HTML`, async ({ page }) => {
      const res = await page.goto(`/?site=${site.id}`);
      expect(res?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', site.locale);
      await expect(page.getByTestId('login-element')).toHaveText(site.login);
      await expect(page.getByTestId('sale-price').first()).toHaveText(site.from);
      await expect(page.locator('header.header img').first()).toHaveAttribute('src', `/img/logo/${site.id}.svg`);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`site=${site.id}$`));
    });
  }
});

test('the home page hydrates: the burger opens the lateral menu', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?site=2');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const burger = page.getByTestId('burger');
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await burger.click();
  await expect(burger).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('lateral-menu')).toHaveClass(/lateral-menu--open/);
  await expect(page.getByTestId('lateral-menu').getByRole('link').first()).toBeVisible();
  expect(errors).toEqual([]);
});

// Leptos starts the islands from an idle callback: a browser that never finds an idle
// period (seen under load in CI) must still make the page interactive.
test('a page hydrates when the browser never calls an idle callback', async ({ page }) => {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  await page.goto('/voyages?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 10_000 });
  const burger = page.getByTestId('burger');
  await burger.click();
  await expect(burger).toHaveAttribute('aria-expanded', 'true');
});

test('the footer switcher moves to the sister brand and remembers it', async ({ page }) => {
  await page.goto('/?site=1');
  await page.getByTestId('site-switcher').getByRole('link', { name: /Violeta · Italia/ }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it-IT');
  await expect(page.locator('html')).toHaveClass(/theme-violeta/);
  await page.goto('/gr/aboutus');
  await expect(page.locator('html')).toHaveAttribute('lang', 'it-IT');
});

test('a Belgian page is one link away in the country\'s other language', async ({ page }) => {
  await page.goto('/gr/aboutus?site=70');
  const languages = page.getByTestId('other-languages');
  await expect(languages).toHaveAttribute('aria-label', 'Langue');
  const dutch = languages.getByRole('link', { name: 'Nederlands' });
  await expect(dutch).toHaveAttribute('lang', 'nl');
  await dutch.click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl-BE');
  expect(new URL(page.url()).pathname).toBe('/gr/aboutus');
  await expect(page.getByTestId('other-languages').getByRole('link', { name: 'Français' })).toHaveAttribute('lang', 'fr');
  // A country the brand sells in one language offers no switch.
  await page.goto('/gr/aboutus?site=1');
  await expect(page.getByTestId('site-switcher')).toBeVisible();
  await expect(page.getByTestId('other-languages')).toHaveCount(0);
});

// (b) Members-only pages redirect before any script runs.
test('a members-only URL redirects to sign-in with the ReturnUrl', async ({ page }) => {
  const res = await page.goto('/my-orders?page=2');
  expect(res?.request().redirectedFrom()?.url()).toContain('/my-orders?page=2');
  const first = await res?.request().redirectedFrom()?.response();
  expect(first?.status()).toBe(302);
  expect(page.url()).toContain('/gr/authentication?ReturnUrl=/gr/my-orders%3Fpage%3D2');
  await expect(page.locator('header.header--simplified')).toBeVisible();
});

test('an unknown page is a localized 404', async ({ page }) => {
  const res = await page.goto('/nowhere?site=76');
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toContainText('Pagina niet gevonden');
});

// (c) The React DSA widget inside a Leptos page.
async function openProduct(page: Page) {
  await page.goto('/seo-product/robe/1001/robe/100101?site=1');
  // The widget's code loads when the section is opened.
  await page.getByTestId('dsa-open').click();
  const widget = page.getByTestId('dsa-widget');
  await expect(widget.locator('input[name="email"]')).toBeVisible();
  return widget;
}

async function fillReport(widget: ReturnType<Page['getByTestId']>, email: string) {
  await widget.locator('input[name="selectedMadeAs"][value="1"]').check();
  await widget.locator('input[name="selectedConcerns"][value="HATRED"]').check();
  await widget.locator('textarea[name="description"]').fill('This product shows a hateful slogan on its front.');
  await widget.locator('input[name="lastName"]').fill('Durand');
  await widget.locator('input[name="email"]').fill(email);
  await widget.locator('input[name="isNotificationSubmitChecked"]').check();
}

test('the DSA widget validates, submits, and shows the rate-limit message', async ({ page }, info) => {
  // One client address per test run, so the per-client limit (1 in this server) is ours.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.0.${info.project.name === 'mobile' ? 2 : 1}.${Date.now() % 250}` });
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/dsacontactform')) posts.push(r.url());
  });

  let widget = await openProduct(page);
  await fillReport(widget, 'not-an-email@example');
  await widget.locator('button[type="submit"]').click();
  await expect(widget.locator('[data-error-for="email"]')).toBeVisible();
  await expect(widget.locator('[data-error-for="email"]')).not.toBeEmpty();
  expect(posts).toHaveLength(0);

  await widget.locator('input[name="email"]').fill('jane.durand@example.com');
  await widget.locator('button[type="submit"]').click();
  await expect(widget.getByRole('status')).toBeVisible();
  expect(posts).toHaveLength(1);

  widget = await openProduct(page);
  await fillReport(widget, 'jane.durand@example.com');
  await widget.locator('button[type="submit"]').click();
  await expect(widget.getByTestId('dsa-message')).toContainText(/trop de signalements|too many/i);
  expect(posts).toHaveLength(2);
});

test('the browsable API page lists the documented calls from local files', async ({ page }) => {
  const outside: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      outside.push(r.url());
    }
  });
  await page.goto('/api/docs');
  // Operations are rendered from /api/openapi.json, grouped by tag. From 150 tags and
  // operations on, Swagger UI 5 renders only those near the viewport (a virtual list):
  // the reader scrolls down to the cart's add call.
  await expect(page.locator('.opblock-tag').first()).toBeVisible();
  const call = page.getByText('/api/cartproxy/v1/item', { exact: true }).first();
  await expect(async () => {
    if (!(await call.isVisible())) await page.evaluate(() => window.scrollBy(0, 500));
    await expect(call).toBeVisible({ timeout: 300 });
  }).toPass({ timeout: 30_000 });
  expect(outside, 'no request leaves the shop').toEqual([]);
});

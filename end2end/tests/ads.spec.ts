import { type BrowserContext, type Page } from '@playwright/test';
import { test, expect } from '@playwright/test';

// Advertising (spec 000 §1, §4 "advertising blocker"). The ad script (a local
// demo file, /js/ads-demo.js, behind the loader /js/ads.js) is on the page only with the
// behaviour consent (C0004). When it cannot load, the blocker cookie `adBlocker` is set for
// a month, the filtered-banner marker `filteredBanner` is written and the sponsored banners
// (MediaAdsBanner tiles) are hidden, and the shop keeps working; when it loads, cookie and
// marker are cleared and the banners are back.

const AD_SCRIPT = /\/js\/ads-demo\.js$/;
const SPONSORED = '[data-banner-kind="MediaAdsBanner"]';

async function consent(context: BrowserContext, baseURL: string, behaviour: boolean) {
  await context.addCookies([
    { name: 'OptanonConsent', value: `groups=C0001:1,C0002:0,C0003:0,C0004:${behaviour ? 1 : 0},C0005:0`, url: baseURL },
  ]);
}

const marker = (page: Page) => page.evaluate(() => window.localStorage.getItem('filteredBanner'));

test('a blocked ad script sets the blocker cookie for a month and hides sponsored banners; the shop works', async ({ page, context, baseURL }) => {
  await consent(context, baseURL!, true);
  let tried = 0;
  await page.route(AD_SCRIPT, (route) => {
    tried++;
    return route.abort('blockedbyclient');
  });
  await page.goto('/?site=1');
  await expect(page.locator('script[data-consent="C0004"]')).toHaveCount(1);
  await expect(page.locator('html')).toHaveAttribute('data-ads', 'blocked');
  expect(tried).toBe(1);
  // The page's cookie write reaches the browser's store a moment later.
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'adBlocker')?.value).toBe('1');
  const cookie = (await context.cookies()).find((c) => c.name === 'adBlocker');
  const days = (cookie!.expires - Date.now() / 1000) / 86400;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
  expect(await marker(page)).toBe('1');
  await expect(page.locator(SPONSORED)).not.toHaveCount(0);
  for (const tile of await page.locator(SPONSORED).all()) await expect(tile).toBeHidden();
  await expect(page.getByTestId('ad-partner')).toHaveCount(0);
  // Everything else is there and works: the other banners, a sale, a product.
  await expect(page.locator('[data-testid="banner-tile"]:not([data-banner-kind="MediaAdsBanner"])').first()).toBeVisible();
  const sale = await page.getByTestId('sale-grid').locator('a').first().getAttribute('href');
  await page.goto(sale!);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('items-grid').locator('[data-item-id]').first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-ads', 'blocked');
  // The next home keeps them hidden from the start (the cookie), and tries again.
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-ads', 'blocked');
  for (const tile of await page.locator(SPONSORED).all()) await expect(tile).toBeHidden();
  expect(tried).toBe(3);
});

test('an ad script that loads clears the blocker cookie and the filtered-banner marker', async ({ page, context, baseURL }) => {
  await consent(context, baseURL!, true);
  await context.addCookies([{ name: 'adBlocker', value: '1', url: baseURL! }]);
  await page.addInitScript(() => {
    if (window.localStorage.getItem('filteredBanner') === null && !sessionStorage.getItem('seeded')) {
      window.localStorage.setItem('filteredBanner', '1');
      sessionStorage.setItem('seeded', '1');
    }
  });
  const loaded = page.waitForResponse((r) => AD_SCRIPT.test(new URL(r.url()).pathname) && r.status() === 200);
  await page.goto('/?site=1');
  await loaded;
  await expect(page.locator('html')).toHaveAttribute('data-ads', 'loaded');
  // The page's cookie write reaches the browser's store a moment later.
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'adBlocker')).toBeUndefined();
  expect(await marker(page)).toBeNull();
  // The sponsored banners show, with the demo partner's harmless label.
  await expect(page.locator(SPONSORED).first()).toBeVisible();
  await expect(page.locator(SPONSORED).first().getByTestId('ad-partner')).toBeVisible();
});

test('without the behaviour consent the ad script is never requested', async ({ page, context, baseURL }) => {
  await consent(context, baseURL!, false);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/js\/ads(-demo)?\.js$/.test(new URL(r.url()).pathname)) asked.push(r.url());
  });
  for (const path of ['/?site=1', '/gr/aboutus']) {
    await page.goto(path);
    await page.waitForLoadState('load');
    await expect(page.locator('script[data-consent="C0004"]')).toHaveCount(0);
  }
  // Sponsored banners stay (nothing was blocked), no blocker cookie.
  await page.goto('/?site=1');
  await expect(page.locator(SPONSORED).first()).toBeVisible();
  expect(asked).toEqual([]);
  expect((await context.cookies()).find((c) => c.name === 'adBlocker')).toBeUndefined();
  await expect(page.locator('html')).not.toHaveAttribute('data-ads', /.+/);
});

test('an ad tile says what it is: publicity on site 1, a brand sponsored on site 66, in the site language', async ({ page, context, baseURL }) => {
  await consent(context, baseURL!, true);
  for (const [site, type, label] of [[1, 'PUBLICITY', 'Publicité'], [66, 'SPONSORED', 'Patrocinado']] as const) {
    await page.goto(`/?site=${site}`);
    await expect(page.locator('html')).toHaveAttribute('data-ads', 'loaded');
    const tag = page.locator(SPONSORED).first().locator('.tile__ad');
    await expect(tag).toBeVisible();
    await expect(tag).toHaveAttribute('data-advertising-type', type);
    await expect(tag).toHaveText(label);
  }
});

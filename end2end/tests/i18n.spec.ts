import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';

// A page carries only the translations its browser code reads, and every one
// it reads. Each page below loads with a trace defined before any script runs
// (`window.__i18nTrace`): the WASM adds every key it looks up to `read` (and the keys an
// island declares it shows only later, after a click, a tick or a call, to `later`:
// `shown_later` in app/src/site/i18n/page.rs); the React widgets add every key they read
// from the page's table to `read` and the keys they may read to `later`. Once the page
// is interactive (and its widgets are open), the keys of `<script id="i18n">` must be
// exactly those: none shipped that nothing reads or declares, none read or declared that
// the page lacks. "Read" is the browser's real lookups, not the server's record.

type Trace = { read: Set<string>; later: Set<string> };
type Seen = { shipped: Record<string, string> | null; read: string[]; later: string[] };

declare global {
  interface Window {
    __i18nTrace?: Trace;
  }
}

let allKeys: Set<string> | null = null;

/// Every key of the tables (the same in every language): keys a page looks up that no
/// table has (a made-up error key) show as themselves and need no shipping.
async function existingKeys(page: Page): Promise<Set<string>> {
  if (!allKeys) {
    const res = await page.request.get('/api/content/v1/translations?locale=fr-fr');
    expect(res.ok()).toBe(true);
    allKeys = new Set(Object.keys((await res.json()).translations));
  }
  return allKeys;
}

async function traced(page: Page) {
  await page.addInitScript(() => {
    window.__i18nTrace = { read: new Set(), later: new Set() };
  });
}

async function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    const el = document.getElementById('i18n');
    const trace = window.__i18nTrace!;
    return {
      shipped: el?.textContent ? (JSON.parse(el.textContent) as Record<string, string>) : null,
      read: [...trace.read],
      later: [...trace.later],
    };
  });
}

async function clearTrace(page: Page) {
  await page.evaluate(() => {
    window.__i18nTrace!.read.clear();
    window.__i18nTrace!.later.clear();
  });
}

/// Compares what the page ships with what its scripts read and declare.
async function expectShippedIsUsed(page: Page, label: string) {
  const all = await existingKeys(page);
  const { shipped, read, later } = await seen(page);
  expect(shipped, `${label}: the page carries its table`).not.toBeNull();
  const keys = new Set(Object.keys(shipped!));
  const exact = later.filter((k) => !k.endsWith('.*'));
  const families = later.filter((k) => k.endsWith('.*')).map((k) => k.slice(0, -1));
  const declared = (k: string) => exact.includes(k) || families.some((p) => k.startsWith(p));
  const unused = [...keys].filter((k) => !read.includes(k) && !declared(k)).sort();
  const missing = [...new Set([...read, ...exact])].filter((k) => all.has(k) && !keys.has(k)).sort();
  const missingFamily = families.flatMap((p) => [...all].filter((k) => k.startsWith(p) && !keys.has(k))).sort();
  expect(unused, `${label}: shipped, but no script reads or declares them`).toEqual([]);
  expect(missing, `${label}: read or declared, but not shipped`).toEqual([]);
  expect(missingFamily, `${label}: declared families not shipped whole`).toEqual([]);
  expect(read.length, `${label}: the page's scripts read their texts`).toBeGreaterThan(0);
}

/// No text the member sees or hears is a raw key: what a page shows for a key it lacks.
async function expectNoRawKeys(page: Page, label: string) {
  const all = await existingKeys(page);
  const shown = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent && !['SCRIPT', 'STYLE', 'TEMPLATE'].includes(parent.tagName)) out.push(n.textContent ?? '');
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out;
  });
  const raw = [...new Set(shown.map((t) => t.trim()).filter((t) => all.has(t)))].sort();
  expect(raw, `${label}: keys shown as text`).toEqual([]);
}

async function visit(page: Page, path: string, then?: (page: Page) => Promise<void>) {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  if (then) await then(page);
  await page.waitForLoadState('networkidle');
  await expectShippedIsUsed(page, path);
  await expectNoRawKeys(page, path);
}

/// The report form (React) loads when its box opens, and reads the page's table.
async function openReportForm(page: Page) {
  await page.getByTestId('dsa-open').click();
  await expect(page.locator('rosace-dsa-form .dsa-title')).toBeVisible();
}

test('each page ships exactly the translations its islands and widgets read: visitor', async ({ page }) => {
  await traced(page);
  await visit(page, '/?site=1');
  const saleHref = await page.getByTestId('sale-grid').locator('a').first().getAttribute('href');
  await visit(page, saleHref!);
  const productHref = await page.getByTestId('items-grid').locator('[data-item-id] a').first().getAttribute('href');
  await visit(page, productHref!, openReportForm);
  await visit(page, '/find?q=robe');
  await visit(page, '/voyages?site=1');
  await visit(page, '/brandsplace');
  await visit(page, '/gr/aboutus');
  // Another language: its texts.
  await visit(page, '/?site=2');
});

test('each page ships exactly the translations its islands and widgets read: member', async ({ page }) => {
  test.setTimeout(180_000);
  await traced(page);
  await signInAsDemo(page, 1, '/');
  await visit(page, '/');
  await visit(page, '/catalog/1001/0');
  await visit(page, '/find?q=robe');
  await visit(page, '/home/travel');
  // The travel catalog's map and the travel product's price calendar: React widgets that
  // load as they near the viewport.
  await visit(page, '/t/c/1025', async (p) => {
    await p.getByTestId('travel-map').scrollIntoViewIfNeeded();
    // A pin's list item has no box of its own (its button is placed on the map): attached
    // means the widget has rendered, and read its texts.
    await expect(p.getByTestId('travel-map').locator('li.tm-pin-wrap').first()).toBeAttached();
  });
  await visit(page, '/t/p/1025/102503', async (p) => {
    await p.getByTestId('travel-calendar').scrollIntoViewIfNeeded();
    await expect(p.locator('travel-calendar button.rdp-day_button').first()).toBeVisible();
  });
  for (const path of [
    '/my-orders',
    '/helpform',
    '/myaccount',
    '/myaccount/memberdata',
    '/postsales/myaccount/addresses/',
    '/postsales/myaccount/wallet/',
    '/vouchers-promotions',
    '/gr/my-notifications/',
    '/postsales/favourites',
    '/rosedeals',
    '/communications',
  ]) {
    await visit(page, path);
  }
  // The product page, its report form, and an add to the cart (the button's later texts).
  await visit(page, '/product/1001/100101', async (p) => {
    await openReportForm(p);
    const option = p.locator('[data-testid="product-option"]:not([disabled])').first();
    if ((await option.count()) > 0) await option.check();
    await p.getByTestId('add-to-cart').click();
    await expect(p.getByTestId('added-to-cart')).toBeVisible();
  });
  // The cart with that line (the island renders it from the browser's call); emptied
  // again so the other specs find the cart as they left it.
  await visit(page, '/cart', async (p) => {
    await expect(p.getByTestId('cart-line').first()).toBeVisible();
  });
  await page.getByTestId('cart-clear').click();
  await expect(page.getByTestId('cart-empty')).toBeVisible();
  await expectShippedIsUsed(page, '/cart, emptied');
  await expectNoRawKeys(page, '/cart, emptied');
});

test('after an in-app navigation the islands read the new page’s table, in its language', async ({ page }) => {
  await traced(page);
  await visit(page, '/?site=1');
  // A same-site link: pages/navigation.ts swaps the body (and its table), the WASM stays.
  await clearTrace(page);
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '/?site=2';
    a.id = 'to-german';
    a.textContent = 'de';
    // Out from under the fixed header, which would take the click.
    a.style.cssText = 'position: fixed; left: 0; bottom: 0; z-index: 2147483647';
    document.body.append(a);
  });
  await page.locator('#to-german').click();
  await expect(page.locator('html')).toHaveAttribute('data-navigated', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', /^de/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.waitForLoadState('networkidle');
  await expectShippedIsUsed(page, '/?site=2 after an in-app navigation');
  // The countdowns tick in the browser with the new page's (German) texts: after a tick,
  // a table kept from the first page would have made them French again.
  await page.waitForTimeout(1500);
  const { shipped } = await seen(page);
  const ends = shipped!['home.countdown.days'].split('{')[0].trim();
  expect(ends).not.toBe('');
  await expect(page.getByTestId('countdown').locator('.countdown__text').first()).toContainText(ends);
});

import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';

// The link crawl: no link of the product leads to a placeholder, a 404 or a
// 500. On each site, signed out and signed in, it gathers every same-site link of the home
// page, the mobile menu page and the account page (the header, the lateral and account
// menus, opened, and the footer come with them), then requests each once (depth 1, no
// recursion). Skipped: sign-out links, other origins, and the site switcher's `?site=`
// links (they only reload the same page on another site, and would move this browser there).
// The desktop project crawls six sites and the phone the other five: all eleven. To stay cheap, links of one
// shape (the same path once numbers are set aside: many sales, many products) are requested
// at most SAME_SHAPE times per site, a few at a time.

// The "coming soon" page's marker (that page is gone; this catches it coming back).
const PLACEHOLDER = /class="placeholder"[^>]*data-page-kind="([A-Za-z]+)"/;
const NOT_FOUND = 'data-testid="not-found"';
const SAME_SHAPE = 2;
const AT_ONCE = 4;

/// A link's shape: its path with numbers as `:n` and, in a path that has a number (a sale,
/// a product, a brand), the slugs after its first segment as `:s` (not the one- or two-letter
/// route segments such as `/t/p/`); the query set aside. So
/// `/c/robes/1001/2` and `/c/jupes/1002/7` are one shape, `/l/a` and `/l/b` two.
function shape(link: string): string {
  const segs = link.split('?')[0].replace(/\/$/, '').split('/').filter((s) => s && s !== 'gr');
  const numeric = segs.some((s) => /^\d+$/.test(s));
  return segs.map((s, i) => (/^\d+$/.test(s) ? ':n' : numeric && i > 0 && s.length > 2 ? ':s' : s)).join('/');
}

async function linksOf(page: Page, path: string, origin: string): Promise<string[]> {
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers`).toBeLessThan(400);
  const hrefsNow = () =>
    page.evaluate(() => Array.from(document.querySelectorAll('a[href]')).map((a) => (a as HTMLAnchorElement).href));
  const hrefs = await hrefsNow();
  // Menus that render when opened: the burger (lateral menu) and the account menu, one at
  // a time (an open menu covers the other's opener), each closed again with Escape. A
  // click that cannot land gives up after a few seconds instead of waiting for the test's.
  for (const id of ['burger', 'login-element']) {
    const opener = page.getByTestId(id).first();
    if ((await opener.count()) > 0 && (await opener.isVisible())) {
      const tag = await opener.evaluate((el) => el.tagName);
      if (tag !== 'A') {
        await opener.click({ timeout: 5_000 }).catch(() => undefined);
        await page.waitForTimeout(250);
        hrefs.push(...(await hrefsNow()));
        await page.keyboard.press('Escape').catch(() => undefined);
      }
    }
  }
  const out: string[] = [];
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.origin !== origin) continue;
    if (/logout/i.test(url.pathname)) continue;
    if (url.searchParams.has('site')) continue;
    url.hash = '';
    out.push(url.pathname + url.search);
  }
  return out;
}

async function crawl(page: Page, site: number, member: boolean, baseURL: string): Promise<string[]> {
  const origin = new URL(baseURL).origin;
  // The site is chosen once (cookie); the links are then requested as this browser.
  await page.goto(`/?site=${site}`);
  if (member) await signInAsDemo(page, site, '/');
  const starts = ['/', '/menu'];
  if (member) starts.push('/gr/myaccount');
  const links = new Set<string>();
  for (const start of starts) {
    for (const l of await linksOf(page, start, origin)) links.add(l);
  }
  expect(links.size, `site ${site}: links found`).toBeGreaterThan(10);
  const perShape = new Map<string, number>();
  const chosen = [...links].sort().filter((link) => {
    const n = (perShape.get(shape(link)) ?? 0) + 1;
    perShape.set(shape(link), n);
    return n <= SAME_SHAPE;
  });
  // Every shape of link is requested.
  expect(new Set(chosen.map(shape)).size).toBe(perShape.size);
  const failures: string[] = [];
  const who = `site ${site} ${member ? 'member' : 'visitor'}`;
  for (let i = 0; i < chosen.length; i += AT_ONCE) {
    await Promise.all(
      chosen.slice(i, i + AT_ONCE).map(async (link) => {
        const res = await page.request.get(link, { maxRedirects: 10 });
        const status = res.status();
        const type = res.headers()['content-type'] ?? '';
        const body = type.includes('html') ? await res.text() : '';
        const kind = PLACEHOLDER.exec(body)?.[1];
        if (status >= 400) failures.push(`${who}: ${link} → ${status}`);
        else if (kind) failures.push(`${who}: ${link} → placeholder ${kind}`);
        else if (body.includes(NOT_FOUND)) failures.push(`${who}: ${link} → the not-found page`);
      }),
    );
  }
  return failures;
}

// All eleven sites, split between the two projects.
const SITES = { desktop: [1, 3, 66, 70, 71, 76], mobile: [2, 4, 7, 69, 73] } as Record<string, number[]>;

test('every link from the home, menus and footer answers a real page, signed out', async ({ page, baseURL }, info) => {
  test.setTimeout(480_000);
  const failures: string[] = [];
  for (const site of SITES[info.project.name] ?? [1]) failures.push(...(await crawl(page, site, false, baseURL!)));
  expect(failures, failures.join('\n')).toEqual([]);
});

test('every link from the home, menus and footer answers a real page, signed in', async ({ page, baseURL }, info) => {
  test.setTimeout(600_000);
  const failures: string[] = [];
  for (const site of SITES[info.project.name] ?? [1]) {
    await page.context().clearCookies();
    await page.context().addCookies([
      { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
    ]);
    failures.push(...(await crawl(page, site, true, baseURL!)));
  }
  expect(failures, failures.join('\n')).toEqual([]);
});

import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';

// The link crawl of issue #15: no link of the product leads to a placeholder, a 404 or a
// 500. On each site, signed out and signed in, it gathers every same-site link of the home
// page, the mobile menu page and the account page (the header, the lateral and account
// menus, opened, and the footer come with them), then requests each once (depth 1, no
// recursion). Skipped: sign-out links, other origins, and the site switcher's `?site=`
// links (they only reload the same page on another site, and would move this browser there).
// Desktop crawls three sites; the phone crawls one, to stay cheap.

// The placeholder page's marker (app/src/ui/placeholder.rs).
const PLACEHOLDER = /class="placeholder"[^>]*data-page-kind="([A-Za-z]+)"/;

async function linksOf(page: Page, path: string, origin: string): Promise<string[]> {
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers`).toBeLessThan(400);
  // Menus that render when opened: the burger (lateral menu) and the account menu.
  for (const id of ['burger', 'login-element']) {
    const opener = page.getByTestId(id).first();
    if ((await opener.count()) > 0 && (await opener.isVisible())) {
      const tag = await opener.evaluate((el) => el.tagName);
      if (tag !== 'A') {
        await opener.click().catch(() => undefined);
        await page.waitForTimeout(250);
      }
    }
  }
  const hrefs = await page.evaluate(() =>
    Array.from(document.querySelectorAll('a[href]')).map((a) => (a as HTMLAnchorElement).href),
  );
  await page.keyboard.press('Escape').catch(() => undefined);
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
  const failures: string[] = [];
  for (const link of [...links].sort()) {
    const res = await page.request.get(link, { maxRedirects: 10 });
    const status = res.status();
    const type = res.headers()['content-type'] ?? '';
    const body = type.includes('html') ? await res.text() : '';
    const kind = PLACEHOLDER.exec(body)?.[1];
    if (status >= 400) failures.push(`site ${site} ${member ? 'member' : 'visitor'}: ${link} → ${status}`);
    else if (kind) failures.push(`site ${site} ${member ? 'member' : 'visitor'}: ${link} → placeholder ${kind}`);
  }
  return failures;
}

const SITES = { desktop: [1, 66, 71], mobile: [2] } as Record<string, number[]>;

test('every link from the home, menus and footer answers a real page, signed out', async ({ page, baseURL }, info) => {
  test.setTimeout(240_000);
  const failures: string[] = [];
  for (const site of SITES[info.project.name] ?? [1]) failures.push(...(await crawl(page, site, false, baseURL!)));
  expect(failures, failures.join('\n')).toEqual([]);
});

test('every link from the home, menus and footer answers a real page, signed in', async ({ page, baseURL }, info) => {
  test.setTimeout(300_000);
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

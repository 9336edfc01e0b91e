import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { signInAsDemo, signInByCall, DEMO_EMAIL, DEMO_PASSWORD } from './session';
import { htmlErrors } from './html-validity';

// Content pages: about us, privacy policy and general conditions complete
// without scripts, with canonical and hreflang links; landing pages with their selection
// and seoConfig; an unknown landing is the real 404; every footer link answers 200; each
// hreflang alternate of a landing answers that landing; the registration form links the
// documents it asks members to accept; the crawlable pages are valid HTML as the server
// sends them, with the consent banner in the page and for a signed-in member.

const PLACEHOLDER = /class="placeholder"[^>]*data-page-kind/;

test('about us, privacy policy and general conditions are complete without scripts', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [site, path, doc, title] of [
    [1, '/gr/aboutus', 'aboutus', 'Qui sommes-nous ?'],
    [2, '/registration/privacypolicy', 'privacypolicy', 'Datenschutzerklärung'],
    [69, '/registration/generalconditions', 'generalconditions', 'Condizioni generali di vendita'],
    [71, '/aboutus', 'aboutus', 'Over ons'],
  ] as const) {
    const res = await page.goto(`${path}?site=${site}`);
    expect(res?.status()).toBe(200);
    const article = page.getByTestId('content-doc');
    await expect(article).toHaveAttribute('data-doc', doc);
    await expect(article.getByRole('heading', { level: 1 })).toHaveText(title);
    expect(await article.locator('section.content-doc__section').count()).toBeGreaterThanOrEqual(5);
    // The table of contents jumps to each section.
    const first = await article.locator('.content-doc__toc a').first().getAttribute('href');
    await expect(page.locator(first!)).toBeVisible();
    // Canonical on the canonical path, hreflang alternates for the brand's sites.
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toContain(path === '/aboutus' ? '/gr/aboutus' : path);
    expect(await page.locator('link[rel="alternate"][hreflang]').count()).toBeGreaterThanOrEqual(2);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    expect(await page.content()).not.toMatch(PLACEHOLDER);
  }
  // The sister brand's documents speak of it, not of Rosace.
  await page.goto('/gr/aboutus?site=66');
  await expect(page.getByTestId('content-doc')).toContainText('Violeta');
  // The privacy policy lists the cookies the shop sets, with the consent categories.
  await page.goto('/registration/privacypolicy?site=1');
  const cookies = page.locator('#doc-cookies table');
  for (const name of ['rosace_session', 'XSRF-TOKEN', 'site', 'OptanonConsent', 'trv_departure_city']) {
    await expect(cookies.getByRole('rowheader', { name, exact: true })).toBeVisible();
  }
  await expect(page.locator('#doc-consent')).toContainText('C0005');
  await context.close();
});

test('the sitemap lists the documents and the landing pages', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml?site=3')).text();
  for (const path of ['/gr/aboutus', '/registration/privacypolicy', '/registration/generalconditions', '/l/ventas-de-la-semana', '/l/marca-destacada', '/brandsplace']) {
    expect(xml).toContain(path);
  }
});

// The demo landing pages of the sites the validity test reads (seed: server/src/demo); the
// test reads every landing page of the site (the call's list), these among them.
const LANDINGS: Record<number, string[]> = {
  1: ['ventes-de-la-semaine', 'marque-a-la-une'],
  2: ['aktionen-der-woche', 'marke-im-fokus'],
  3: ['ventas-de-la-semana', 'marca-destacada'],
  69: ['vendite-della-settimana', 'marchio-in-evidenza'],
};

test('the crawlable pages are valid HTML without scripts, banner shown, signed out and signed in', async ({ browser, baseURL }, info) => {
  // Two sites of different languages per project (Violeta, the sister brand, on phones).
  const sites = info.project.name === 'desktop' ? [1, 2] : [3, 69];
  const errors: string[] = [];
  let checked = 0;
  let expected = 0;
  for (const site of sites) {
    // A fresh context without the fixture's consent cookie: a visitor who has not
    // answered the cookie banner, so the banner is part of every page.
    const context = await browser.newContext({ baseURL });
    const landings = ((await (await context.request.get(`/api/content/v1/landings?site=${site}`)).json()) as { slug: string }[])
      .map((l) => l.slug);
    for (const slug of LANDINGS[site]) expect(landings, `site ${site}`).toContain(slug);
    const paths = [
      '/gr/aboutus',
      '/registration/privacypolicy',
      '/registration/generalconditions',
      ...landings.map((slug) => `/l/${slug}`),
      '/brandsplace',
      '/brandsplace?q=a',
    ];
    expected += 2 * paths.length;
    const check = async (who: 'visitor' | 'member', path: string) => {
      const url = `${path}${path.includes('?') ? '&' : '?'}site=${site}`;
      const res = await context.request.get(url);
      expect(res.status(), url).toBe(200);
      const html = await res.text();
      // The case under test is really there: the banner, and the member when signed in
      // (the page's context names them; the registration pages have no account menu).
      expect(html, `${who} ${url}`).toContain('data-testid="consent-banner"');
      expect(/&quot;memberId&quot;:\d+/.test(html), `${who} ${url}`).toBe(who === 'member');
      for (const e of await htmlErrors(html)) {
        errors.push(`${who} ${url}: ${e.rule}: ${e.message}\n    …${e.near}…`);
      }
      checked++;
    };
    for (const path of paths) await check('visitor', path);
    // Signed in through the sign-in call, as the sign-in page's script does; the banner
    // stays unanswered.
    await signInByCall(context, site, DEMO_EMAIL, DEMO_PASSWORD);
    for (const path of paths) await check('member', path);
    await context.close();
  }
  expect(checked).toBe(expected);
  expect(checked).toBeGreaterThanOrEqual(28);
  expect(errors, errors.join('\n')).toEqual([]);
});

test('a landing page shows its blocks, selection and seoConfig; an unknown one is a 404', async ({ page }) => {
  await page.goto('/?site=3');
  // Reached from the footer's inspirations.
  await page.locator('.footer [data-section="inspirations"] a[href="/l/ventas-de-la-semana"]').click();
  await expect(page).toHaveURL(/\/l\/ventas-de-la-semana$/);
  const landing = page.getByTestId('landing');
  await expect(landing.getByRole('heading', { level: 1 })).toHaveText('Las ventas de la semana');
  await expect(page).toHaveTitle(/Moda de marca y viajes/);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  expect(description).toContain('Rosace');
  await expect(page.getByTestId('landing-seo-footer').locator('p')).toHaveCount(2);
  const sales = page.getByTestId('landing-sales').locator('a');
  expect(await sales.count()).toBeGreaterThanOrEqual(4);
  const href = await sales.first().getAttribute('href');
  expect(href).toMatch(/^\/c\/[^/]+\/\d+\/\d+$/);
  await sales.first().click();
  await expect(page).toHaveURL(new RegExp(href!.replace(/\//g, '\\/') + '$'));
  await expect(page.getByTestId('items-grid')).toBeVisible();
  // The brand landing: that brand's items.
  await page.goto('/l/marca-destacada');
  expect(await page.getByTestId('landing-products').locator('[data-item-id]').count()).toBeGreaterThan(0);
  // Another site's slug and a made-up one: the real not-found page, with its status.
  for (const path of ['/l/ventes-de-la-semaine', '/l/nothing-here', '/l/ventas-de-la-semana/extra']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
  }
});

async function footerLinksAnswer(page: import('@playwright/test').Page) {
  const hrefs = await page.locator('[data-testid="footer-links"] a').evaluateAll((as) =>
    as.map((a) => a.getAttribute('href') ?? ''),
  );
  expect(hrefs.length).toBeGreaterThan(5);
  for (const href of hrefs) {
    const res = await page.request.get(href);
    expect(res.status(), href).toBe(200);
    expect(await res.text(), href).not.toMatch(PLACEHOLDER);
  }
  return hrefs;
}

test('footer links answer 200, signed out and signed in', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 76;
  await page.goto(`/?site=${site}`);
  const visitor = await footerLinksAnswer(page);
  expect(visitor).toContain('/registration/privacypolicy');
  expect(visitor).not.toContain('/gr/my-orders');
  // The brands place is open to visitors: the footer is their way in.
  expect(visitor).toContain('/brandsplace');
  await signInAsDemo(page, site, '/');
  const member = await footerLinksAnswer(page);
  expect(member).toContain('/gr/my-orders');
  expect(member).toContain('/postsales');
  expect(member).not.toContain('/gr/registration');
  // The after-sale hub and the premium page are real pages.
  await page.goto('/postsales');
  const hub = page.getByTestId('postsales-hub');
  await expect(hub.locator('a')).toHaveCount(8);
  await hub.locator('a[href="/gr/my-orders"]').click();
  await expect(page.getByTestId('orders-page')).toBeVisible();
  await page.goto('/checkout/loyalty');
  await expect(page.getByTestId('loyalty-page').locator('a[href="/cart"]').first()).toBeVisible();
});

test('each hreflang alternate of a landing page is that landing on its site, at its own slug', async ({ page, request }, info) => {
  const [site, path] = info.project.name === 'desktop' ? [1, '/l/ventes-de-la-semaine'] : [69, '/l/vendite-della-settimana'];
  const res = await page.goto(`${path}?site=${site}`);
  expect(res?.status()).toBe(200);
  const alternates = await page.locator('link[rel="alternate"][hreflang]').evaluateAll((ls) =>
    ls.map((l) => ({ lang: l.getAttribute('hreflang')!, href: (l as HTMLLinkElement).href })),
  );
  expect(alternates.length).toBeGreaterThanOrEqual(2);
  expect(new Set(alternates.map((a) => a.lang)).size).toBe(alternates.length);
  // Slugs are in each site's language: not all the same path.
  expect(new Set(alternates.map((a) => new URL(a.href).pathname)).size).toBeGreaterThan(1);
  for (const { href } of alternates) {
    const alt = await request.get(href);
    expect(alt.status(), href).toBe(200);
    expect(await alt.text(), href).toContain('data-testid="landing"');
  }
});

const LANG: Record<number, string> = { 1: 'fr', 2: 'de' };
const locale = (site: number) =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${LANG[site]}.json`, import.meta.url), 'utf8')) as Record<string, string>;

test('the registration form links the general conditions and the privacy policy it asks to accept', async ({ page, context }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const t = locale(site);
  await page.goto(`/gr/authentication?site=${site}`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(`consent.${info.project.name}.${Date.now()}@example.com`);
  await page.getByTestId('email-form').getByRole('button').click();
  const form = page.getByTestId('register-form');
  await expect(form).toBeVisible();
  for (const [name, key, href, doc] of [
    ['cgv', 'auth.cgv', '/registration/generalconditions', 'generalconditions'],
    ['privacyPolicy', 'auth.privacy', '/registration/privacypolicy', 'privacypolicy'],
  ] as const) {
    const box = form.locator(`input[name="${name}"]`);
    // The checkbox is still named by its whole sentence (the link is part of it), the
    // new-tab notice after it; the link is named by the document, described by the notice.
    const label = (await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '')).trim();
    expect(label.startsWith(t[key]), `${label} starts with ${t[key]}`).toBe(true);
    await expect(form.getByRole('checkbox', { name: t[key] })).toHaveAttribute('name', name);
    const link = form.locator(`label:has(input[name="${name}"]) a`);
    await expect(link).toHaveAccessibleDescription(/\(.+\)/);
    expect(t[key]).toContain((await link.textContent())!.trim());
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    // The document opens in a new tab; the form stays as it was, the box unticked.
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await expect(tab.getByTestId('content-doc')).toHaveAttribute('data-doc', doc);
    await tab.close();
    await expect(box).not.toBeChecked();
  }
  await expectNoViolations(page);
});

test('the burger menu gifts entry leads to the site gift ideas landing with its sales', async ({ page }, info) => {
  // One site per project, in two languages: /gr/gifts redirects to the site's landing.
  const [site, slug, heading] = info.project.name === 'desktop' ? [1, 'idees-cadeaux', 'Idées cadeaux'] : [3, 'ideas-regalo', 'Ideas de regalo'];
  await page.goto(`/?site=${site}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('burger').click();
  const menu = page.getByTestId('lateral-menu');
  await expect(menu).toHaveClass(/lateral-menu--open/);
  const gifts = menu.locator('a[data-item="gifts"]');
  await expect(gifts).toContainText(heading);
  await expect(gifts).toHaveAttribute('href', '/gr/gifts');
  await gifts.click();
  await expect(page).toHaveURL(new RegExp(`/l/${slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  const sales = page.getByTestId('landing-sales').locator('a[href^="/c/"]');
  expect(await sales.count()).toBeGreaterThan(0);
  await expectNoViolations(page);
});

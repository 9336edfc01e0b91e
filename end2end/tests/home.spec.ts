import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';
import { memberEmail, register, signedIn } from './member-steps';
import { expectNoViolations } from './a11y';

// The home: modules as tiles of every size, the pedagogical module, sale tiles
// counting down, and the scroll position kept per home.

test('the home shows module tiles, the pedagogical module and a ticking countdown', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('banner-tile').first()).toBeVisible();
  for (const size of ['M', 'XL', 'XXL', 'MEGAFAT']) {
    await expect(page.locator(`[data-testid="banner-tile"][data-tile-size="${size}"]`).first()).toBeVisible();
  }
  // The split banner without a mobile image is not there.
  await expect(page.locator('[data-banner-kind="SplittedBanner"]')).toHaveCount(0);

  const ped = page.getByTestId('pedagogical');
  await ped.scrollIntoViewIfNeeded();
  await expect(ped).toBeVisible();
  // White text: a transparent button; its link carries home identifier 1.
  await expect(ped.locator('a.button--transparent')).toHaveAttribute('href', /homeId=1$/);
  // Three highlights, two per page.
  await expect(ped.getByTestId('pedagogical-page')).toHaveCount(2);
  await ped.getByTestId('pedagogical-next').click();
  await expect(ped.locator('.pedagogical__dot[aria-current="true"]')).toHaveText('2');
  await expect(ped.getByTestId('pedagogical-page').nth(1).getByTestId('banner-tile')).toBeInViewport();

  // Sale tiles count down, second by second.
  const countdown = page.getByTestId('sale-grid').getByTestId('countdown').first();
  await expect(countdown).toContainText(/Se termine dans .*\d\d:\d\d:\d\d/);
  const before = await countdown.textContent();
  await page.waitForTimeout(1500);
  expect(await countdown.textContent()).not.toBe(before);

  // A clock stops with its page: left for a sale inside the shop, the home's clocks (out
  // of the document, never disposed) once went on ticking, with the sale's texts.
  await page.evaluate(() => {
    (window as unknown as { oldClock: Element | null }).oldClock = document.querySelector('[data-testid="countdown"] .countdown__text');
  });
  await page.getByTestId('sale-grid').locator('a').first().click();
  await expect(page).toHaveURL(/\/c\/[^/]+\/\d+\/\d+/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const oldClock = () => page.evaluate(() => (window as unknown as { oldClock: Element }).oldClock.textContent);
  const left = await oldClock();
  await page.waitForTimeout(1500);
  expect(await oldClock()).toBe(left);
  // Back home, inside the shop: the new page's clocks tick.
  await page.goBack();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const again = page.getByTestId('sale-grid').getByTestId('countdown').first();
  await expect(again).toContainText(/Se termine dans .*\d\d:\d\d:\d\d/);
  const then = await again.textContent();
  await page.waitForTimeout(1500);
  expect(await again.textContent()).not.toBe(then);
  expect(errors).toEqual([]);
});

test('a named home and one of its parts', async ({ page }) => {
  await page.goto('/gr/home/SUMMER?site=2');
  await expect(page.getByTestId('home')).toHaveAttribute('data-home', 'summer');
  await expect(page.locator('h1')).toHaveText('Sommer-Special');
  await page.goto('/gr/home/summer?site=2&part=summer-pedagogy');
  await expect(page.getByTestId('pedagogical')).toBeVisible();
  await expect(page.getByTestId('pedagogical-page')).toHaveCount(1);
  await expect(page.locator('[data-module="summer-sales"]')).toHaveCount(0);
  await page.getByTestId('home-part').getByRole('link').click();
  await expect(page.locator('[data-module="summer-sales"]')).toBeVisible();
});

test('the scroll position of a home is kept when coming back to it', async ({ page }) => {
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const tile = page.getByTestId('sale-grid').locator('a').nth(6);
  await tile.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 200);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  // Phones scroll smoothly: wait until the position stops moving.
  let y = -1;
  await expect
    .poll(
      async () => {
        const now = await page.evaluate(() => window.scrollY);
        const settled = now === y;
        y = now;
        return settled;
      },
      { intervals: [300] },
    )
    .toBe(true);
  // Saved 500 ms after scrolling stops.
  await expect
    .poll(async () => Number(await page.evaluate(() => sessionStorage.getItem('rosace.home.scroll.default'))))
    .toBeCloseTo(y, -1);

  // To a sale and back. The sale's own scrolling is not the home's position: the home's
  // keeper, left behind by the in-app navigation, once saved it as the home's.
  await tile.click();
  await expect(page).toHaveURL(/\/c\/[^/]+\/\d+\/\d+/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  // Past the keeper's 500 ms wait after scrolling stops: nothing may be saved meanwhile.
  await page.waitForTimeout(800);
  expect(Number(await page.evaluate(() => sessionStorage.getItem('rosace.home.scroll.default')))).toBeCloseTo(y, -1);
  await page.goBack();
  await expect(page.getByTestId('sale-grid')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 30);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(y + 30);

  // Coming back later, by a new visit of the home.
  await page.goto('/gr/aboutus?site=1');
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(y - 30);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(y + 30);
});

// The header names a home's parts in the site's language (never by their
// internal names `sales`, `about`), and its travel tab opens to a visitor (`/voyages`,
// the open-door travel home) while a member's leads to `/home/travel`. Site 2, in German.
test('the home tabs: parts named in the site language, a travel tab that opens to visitors and members', async ({ page }, info) => {
  const de: Record<string, string> = JSON.parse(readFileSync(new URL('../../app/locales/de.json', import.meta.url), 'utf8'));
  const desktop = info.project.name === 'desktop';
  const menuPart = async (openModules: boolean) => {
    if (desktop) {
      await page.goto('/?site=2');
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      const travel = page.getByTestId('home-tab').filter({ hasText: de['menu.travel'] });
      if (!openModules) return { labels: [], travel };
      // The default home's parts, opened from the keyboard (as a visitor may).
      const toggle = page.getByTestId('home-modules-toggle').first();
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const modules = page.getByTestId('home-modules').first().getByTestId('home-module');
      await expect(modules.first()).toBeVisible();
      return { labels: await modules.allTextContents(), travel };
    }
    await page.goto('/menu?site=2');
    const homes = page.getByTestId('mobile-menu-homes');
    return {
      labels: await homes.getByTestId('home-module').allTextContents(),
      travel: homes.getByRole('link', { name: de['menu.travel'], exact: true }),
    };
  };
  let { labels, travel } = await menuPart(true);
  const trimmed = labels.map((l) => l.trim());
  expect(trimmed).toContain(de['home.sales.title']);
  expect(trimmed).not.toContain('sales');
  expect(trimmed).not.toContain('about');
  await expect(travel).toHaveAttribute('href', '/voyages');
  await travel.click();
  await expect(page).toHaveURL(/\/voyages(\?|$)/);
  await expect(page.getByTestId('travel-home')).toBeVisible();
  expect(page.url()).not.toMatch(/authentication/);
  // The default home's travel banner links the members' travel home: a visitor who
  // follows it is shown the open-door travel page, not the sign-in page.
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.locator('main a[href="/home/travel"]').first().click();
  await expect(page).toHaveURL(/\/voyages(\?|$)/);
  await expect(page.getByTestId('travel-home')).toBeVisible();

  await signInAsDemo(page, 2, '/');
  ({ travel } = await menuPart(false));
  await expect(travel).toHaveAttribute('href', '/home/travel');
  await travel.click();
  await expect(page).toHaveURL(/\/home\/travel(\?|$)/);
  await expect(page.getByTestId('travel-home')).toBeVisible();
});

// A home's extras (spec 000 §3 "Home"): the demo's summer home has an information toast, a
// sand background, a line for members and an overlay for new members, on every site.
for (const site of [1, 66]) {
  test(`a home's extras on site ${site}: a toast closed for the visit, the members' line, a new member's overlay once`, async ({ page }, testInfo) => {
    const home = `/gr/home/summer?site=${site}`;
    await page.goto(home);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByTestId('home')).toHaveClass(/home--bg-sand/);
    await expect(page.getByTestId('home-member-information')).toHaveCount(0);
    const toast = page.getByTestId('home-toast');
    await expect(toast).toBeVisible();
    await toast.getByTestId('home-toast-close').click();
    await expect(toast).toBeHidden();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByTestId('home-toast')).toBeHidden();

    // A member who just joined: their line, and the overlay until they answer it.
    const email = memberEmail(site, testInfo.project.name, 'newhome');
    expect(await register(page, site, email)).toBe(201);
    await signedIn(page, site, email, home);
    // The popins and the advertising banner answered (signedIn), the next view has the overlay.
    await page.goto(home);
    await expect(page.getByTestId('home-member-information')).toContainText('Zoe');
    const overlay = page.getByTestId('new-member-overlay');
    await expect(overlay).toBeVisible();
    await expect(overlay.getByRole('heading')).toHaveText(site === 66 ? 'Bienvenido a nuestro club' : 'Bienvenue parmi nos membres');
    await expectNoViolations(page);
    const loaded = page.waitForEvent('load');
    await overlay.getByTestId('new-member-accept').click();
    await loaded;
    await expect(page).toHaveURL(/\/gr\/home\/summer/);
    await expect(page.getByTestId('new-member-overlay')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('home')).toBeVisible();
    await expect(page.getByTestId('new-member-overlay')).toHaveCount(0);
  });
}

test('second-hand, member-to-member and marketplace sales are named on the home and their catalog', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const names = site === 1
    ? { m2m: 'Entre membres', used: 'Seconde main', partner: 'Vendu par un partenaire' }
    : { m2m: 'Von Mitglied zu Mitglied', used: 'Second Hand', partner: 'Verkauf durch einen Partner' };
  await signInAsDemo(page, site, '/');
  const m2m = page.locator('li.sale-tile').filter({ has: page.locator('[data-offer="M2M"]') }).first();
  await expect(m2m.locator('[data-offer="M2M"]')).toHaveText(names.m2m);
  await expect(page.locator('[data-offer="SecondHand"]').first()).toHaveText(names.used);
  await expect(page.locator('[data-offer="Marketplace"]').first()).toHaveText(names.partner);
  await expect(page.locator('[data-offer="FlashSale"]')).toHaveCount(0);
  await expectNoViolations(page);
  // The sale's catalog says it under its name.
  const saleId = await m2m.getAttribute('data-sale-id');
  await m2m.locator('a').first().click();
  await expect(page).toHaveURL(new RegExp(`/catalog/${saleId}/`));
  await expect(page.locator('.catalog__head [data-offer="M2M"]')).toHaveText(names.m2m);
  await expectNoViolations(page);
});

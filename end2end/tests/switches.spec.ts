import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { closePopins, signInByCall, DEMO_EMAIL, DEMO_EMAIL_2, DEMO_PASSWORD } from './session';

// The feature switches of a member's menus and pages (spec 000 §6; the experiments in
// app/src/experiments/rules.rs): a demo member who accepted performance cookies is in each
// experiment, on the side their member id draws, and every page shows and works in the
// version of that side. The server test `experiments_switches` covers both sides of each
// switch with members chosen for them; here each version is used in a real browser.
const PERF = 'groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0';

async function variations(page: Page): Promise<Record<string, string>> {
  const ctx = JSON.parse((await page.locator('html').getAttribute('data-ctx')) ?? '{}');
  return Object.fromEntries(ctx.experiments?.assigned ?? []);
}

// Two demo members of each of two sites: four draws, so each version is likely met here too.
for (const [site, email] of [[1, DEMO_EMAIL], [1, DEMO_EMAIL_2], [66, DEMO_EMAIL], [66, DEMO_EMAIL_2]] as const) {
  test(`site ${site}, ${email}: a member's menus, communications, brands place and links follow their switches`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'OptanonConsent', value: PERF, url: baseURL! }]);
    await signInByCall(context, site, email, DEMO_PASSWORD);
    await page.goto('/');
    await expect(page.getByTestId('login-element')).toBeVisible();
    await closePopins(page);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const drawn = await variations(page);
    test.info().annotations.push({ type: 'variations', description: JSON.stringify(drawn) });
    const on = (name: string) => {
      expect(drawn[name], `${name} is drawn`).toBeTruthy();
      return drawn[name] !== 'control';
    };

    // The account menu: three headed groups, or the one list.
    await page.getByTestId('login-element').click();
    const account = page.getByTestId('account-menu');
    if (on('member_menu_revamp')) {
      await expect(account.getByTestId('account-group')).toHaveCount(3);
      await expect(account.locator('.account-menu__heading').first()).toBeVisible();
    } else {
      await expect(account.locator('ul[data-menu="classic"]')).toBeVisible();
      await expect(account.getByTestId('account-group')).toHaveCount(0);
    }
    await expect(account.locator('a[data-item="my-orders"]')).toBeVisible();
    await expectNoViolations(page);
    await page.getByTestId('login-element').click();

    // The burger: information in place and the account's entries, or the side panel.
    await page.getByTestId('burger').click();
    const lateral = page.getByTestId('lateral-menu');
    await expect(lateral).toHaveClass(/lateral-menu--open/);
    if (on('member_burger_menu_revamp')) {
      await expect(lateral).toHaveAttribute('data-menu', 'revamped');
      await expect(lateral.getByTestId('lateral-account').locator('a[data-item="my-orders"]')).toBeVisible();
      await lateral.getByTestId('menu-information').locator('summary').click();
      await expect(lateral.getByTestId('legal-item').first()).toBeVisible();
      await expect(page.getByTestId('legal-panel')).toHaveCount(0);
    } else {
      await expect(lateral).toHaveAttribute('data-menu', 'classic');
      await expect(lateral.getByTestId('lateral-account')).toHaveCount(0);
      await lateral.getByTestId('menu-information').click();
      await expect(page.getByTestId('legal-panel')).toBeVisible();
    }
    await expectNoViolations(page);
    if (await page.getByTestId('legal-panel').isVisible()) {
      await page.getByTestId('legal-panel').locator('[data-close-panel]').click();
      await expect(page.getByTestId('legal-panel')).toBeHidden();
    }

    // In-app navigation, or a page load for the holdback's control: a link from the burger.
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
    await lateral.locator('a[data-item="home"]').click();
    await expect(page.getByTestId('home')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const inApp = on('member_programmatic_navigation');
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage === true)).toBe(inApp);
    expect(await page.locator('html').getAttribute('data-navigation')).toBe(inApp ? null : 'pages');

    // Communications: the summary's lines lead to their sections.
    await page.goto('/memberaccount/communications');
    await expect(page.getByTestId('preferences-form')).toBeVisible();
    const summary = page.getByTestId('communications-summary');
    if (on('member_communications_revamp')) {
      await expect(summary.getByRole('link')).toHaveCount(4);
      await summary.getByRole('link').last().click();
      await expect(page).toHaveURL(/#brands-title$/);
      await expect(page.locator('#brands-title')).toBeInViewport();
    } else {
      await expect(summary).toHaveCount(0);
    }
    await expectNoViolations(page);

    // The brands place: each brand's live sales, followed to a sale, or the names alone.
    await page.goto('/brandsplace');
    const brands = page.getByTestId('place-brand');
    await expect(brands.first()).toBeVisible();
    const sales = page.getByTestId('brand-sales');
    if (on('member_brands_place_details')) {
      await expect(sales).toHaveCount(await brands.count());
      await expectNoViolations(page);
      const link = sales.first().getByRole('link').first();
      const href = (await link.getAttribute('href'))!;
      expect(href).toMatch(/^\/catalog\/\d+\/0$/);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.locator('h1').first()).toBeVisible();
    } else {
      await expect(sales).toHaveCount(0);
      await expectNoViolations(page);
    }
  });
}

import { type Page } from '@playwright/test';
import { expect } from './fixtures';

export const DEMO_EMAIL = 'demo@rosace.test';
export const DEMO_EMAIL_2 = 'demo2@rosace.test';
export const DEMO_PASSWORD = 'Rosace-demo-2026';

/// Signs in as a site's demo member through the real form and closes any onboarding popin,
/// so the page under test is usable. Leaves the browser on `returnUrl`.
export async function signInAsDemo(page: Page, site: number, returnUrl = '/', email = DEMO_EMAIL) {
  await page.goto(`/gr/authentication?site=${site}&ReturnUrl=${encodeURIComponent(returnUrl)}`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
}

export async function closePopins(page: Page) {
  // The terms of sale are accepted (checkout needs them); the other popins are closed.
  // Each look waits for the whole page first: the popins are server HTML at the very end of
  // <body> (after the footer, app.rs `Page`), a popin's button posts a form, and `click()`
  // returns once the next page has committed, not once it is parsed. `count()` does not
  // wait, so it could read a page whose end had not arrived yet, see no popin and stop
  // with popins left; the next one (often the terms) then blocked a later page.
  for (let i = 0; i < 8; i++) {
    await page.waitForLoadState('domcontentloaded');
    if ((await page.getByTestId('popin').count()) === 0) break;
    const kind = await page.getByTestId('popin').getAttribute('data-popin-type');
    await page.getByTestId(kind === 'terms' ? 'popin-accept' : 'popin-close').click();
  }
  await page.waitForLoadState('domcontentloaded');
  if ((await page.getByTestId('adot-accept').count()) > 0) {
    await page.getByTestId('adot-accept').click();
    await page.waitForLoadState('domcontentloaded');
  }
}

import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo, closePopins, DEMO_EMAIL_2, DEMO_PASSWORD } from './session';
import { expectNoViolations } from './a11y';
import { firstSale, texts } from './member-steps';

// The vouchers page as the second demo member (the cart flows use the first),
// on three sites in three languages per project: a promotion selected, applied by the cart,
// chosen again and gone. The bank form without scripts. Bank details and communications
// are steps of member-journey.spec.ts.

const sitesFor = (project: string) => (project === 'desktop' ? [2, 4, 76] : [3, 7, 73]);

async function voucherInCart(page: Page, site: number) {
  const t = texts(site);
  const sale = firstSale(site);
  await page.goto(`/product/${sale}/${sale * 100 + 5}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.locator('[data-testid="product-option"]:not([disabled])').first().check();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('added-to-cart')).toBeVisible();

  await page.goto('/vouchers-promotions');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('my-vouchers').getByTestId('voucher-card')).not.toHaveCount(0);
  await expectNoViolations(page);
  // The print link opens the member's vouchers as a printable page.
  await page.getByTestId('vouchers-print').click();
  const printUrl = await page.getByTestId('print-link').getAttribute('href');
  const printed = await page.request.get(printUrl!);
  expect(printed.status()).toBe(200);
  expect(await printed.text()).toContain(
    (await page.getByTestId('my-vouchers').getByTestId('voucher-card').first().getAttribute('data-code'))!,
  );
  const promo = page.getByTestId('promotions').locator('[data-code="ETE20"]');
  const toggle = promo.getByTestId('voucher-toggle');
  // The member is shared by this test's attempts: one that failed half-way (then retried)
  // may have left the promotion selected.
  if ((await toggle.getAttribute('aria-pressed')) === 'true') {
    await toggle.click();
    await expect(page.getByTestId('account-notice')).toContainText(t['vouchers.notice.unselected']);
  }
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('account-notice')).toContainText(t['vouchers.notice.selected']);
  await page.getByTestId('account-notice').getByRole('link').click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-voucher').filter({ hasText: 'ETE20' })).toHaveCount(1);
  // Chosen again: it leaves the cart.
  await page.goto('/vouchers-promotions');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('promotions').locator('[data-code="ETE20"]').getByTestId('voucher-toggle').click();
  await expect(page.getByTestId('account-notice')).toContainText(t['vouchers.notice.unselected']);
  await page.goto('/cart');
  await expect(page.getByTestId('cart-voucher').filter({ hasText: 'ETE20' })).toHaveCount(0);
}

for (const index of [0, 1, 2]) {
  test(`a promotion selected on the vouchers page is applied by the cart, site #${index + 1} of the project`, async ({ page }, info) => {
    const site = sitesFor(info.project.name)[index];
    await signInAsDemo(page, site, '/', DEMO_EMAIL_2);
    await voucherInCart(page, site);
  });
}

test('without scripts the bank form posts, keeps what was typed and flags the field', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
  ]);
  const page = await context.newPage();
  await page.goto(`/gr/authentication?site=1&ReturnUrl=${encodeURIComponent('/postsales/myaccount/wallet/')}`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(DEMO_EMAIL_2);
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill('Rosace-demo-2026');
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
  await page.goto('/postsales/myaccount/wallet/');
  const t = texts(1);
  const form = page.getByTestId('bank-form');
  await form.getByTestId('bank-iban').fill('FR15 2004 1010 0505 0001 3M02 606');
  await form.getByTestId('bank-bic').fill('BNPAFRPP');
  await form.getByTestId('bank-ownerName').fill('Louis Rosace');
  await form.getByTestId('bank-confirmation').check();
  await form.getByTestId('bank-save').click();
  await expect(page.locator('[data-error-for="iban"]')).toHaveText(t['wallet.errors.iban_check_digits']);
  await expect(page.getByTestId('bank-iban')).toHaveValue('FR15 2004 1010 0505 0001 3M02 606');
  await page.getByTestId('bank-iban').fill('FR14 2004 1010 0505 0001 3M02 606');
  await page.getByTestId('bank-confirmation').check();
  // Review N1: the password too; without it the form comes back with its message.
  await page.getByTestId('bank-save').click();
  await expect(page.getByTestId('reauth-bank-reauth-error')).toHaveText(t['reauth.error.required']);
  await expect(page.getByTestId('bank-iban')).toHaveValue('FR14 2004 1010 0505 0001 3M02 606');
  await page.getByTestId('bank-confirmation').check();
  await page.getByTestId('reauth-bank-reauth').fill(DEMO_PASSWORD);
  await page.getByTestId('bank-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.text.bank_details.notification']);
  await expect(page.getByTestId('stored-iban-masked')).toHaveText('FR•• •••• •••• •••• •••• •••2 606');
  await context.close();
});

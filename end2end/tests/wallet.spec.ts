import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo, closePopins, DEMO_EMAIL_2 } from './session';
import { expectNoViolations } from './a11y';

// The member account's wallet, communications and vouchers pages (issue #12), as the
// second demo member (the cart flows use the first), on three sites in three languages per
// project: bank details refused then saved masked, NONE opening the cancel survey, the
// partner opt-in withdrawn, a promotion selected and applied by the cart.

const SITES = [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76];
const firstSale = (site: number) => (SITES.indexOf(site) + 1) * 1000 + 1;
const LANG: Record<number, string> = { 2: 'de', 3: 'es', 4: 'it', 7: 'de', 73: 'fr', 76: 'nl' };
const texts = (site: number): Record<string, string> => {
  const lang = LANG[site] ?? 'fr';
  return JSON.parse(readFileSync(new URL(`../../app/locales/wallet/${lang}.json`, import.meta.url), 'utf8'));
};
// Each site's IBAN (SWIFT registry examples) and the same with a wrong check digit.
const IBANS: Record<number, [string, string, string]> = {
  2: ['de89 3704 0044 0532 0130 00', 'DE88 3704 0044 0532 0130 00', 'DEUTDEFF'],
  3: ['ES91 2100 0418 4502 0005 1332', 'ES92 2100 0418 4502 0005 1332', 'CAIXESBB'],
  4: ['IT60 X054 2811 1010 0000 0123 456', 'IT61 X054 2811 1010 0000 0123 456', 'BCITITMM'],
  7: ['AT61 1904 3002 3457 3201', 'AT62 1904 3002 3457 3201', 'BKAUATWW'],
  73: ['LU28 0019 4006 4475 0000', 'LU29 0019 4006 4475 0000', 'BCEELULL'],
  76: ['nl91abna0417164300', 'NL92ABNA0417164300', 'ABNANL2A'],
};
// The masked form the page shows: country, bullets, last four, in groups of four.
const masked = (iban: string) => {
  const plain = iban.replace(/\s/g, '').toUpperCase();
  const shown = plain.slice(0, 2) + '•'.repeat(plain.length - 6) + plain.slice(-4);
  return shown.match(/.{1,4}/g)!.join(' ');
};
const sitesFor = (project: string) => (project === 'desktop' ? [2, 4, 76] : [3, 7, 73]);

async function bankDetails(page: Page, site: number) {
  const t = texts(site);
  const [good, wrong, bic] = IBANS[site];
  await page.goto('/postsales/myaccount/wallet/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const form = page.getByTestId('bank-form');
  await form.getByTestId('bank-iban').fill(wrong);
  await form.getByTestId('bank-bic').fill(bic);
  await form.getByTestId('bank-ownerName').fill('Camille Rosace');
  await form.getByTestId('bank-confirmation').check();
  await form.getByTestId('bank-save').click();
  const ibanError = form.locator('[data-error-for="iban"]');
  await expect(ibanError).toHaveText(t['wallet.errors.iban_check_digits']);
  await expect(form.getByTestId('bank-iban')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('[data-error-for="bic"]')).toBeHidden();
  await expectNoViolations(page); // the form with its error
  // Changing the field clears its own flag.
  await form.getByTestId('bank-iban').fill(good);
  await expect(ibanError).toBeHidden();
  await form.getByTestId('bank-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.text.bank_details.notification']);
  await expect(page.getByTestId('stored-iban-masked')).toHaveText(masked(good));
  await expect(page.locator('body')).not.toContainText(good.replace(/\s/g, '').toUpperCase());
  // After a reload too: masked, never the number.
  await page.reload();
  await expect(page.getByTestId('stored-iban-masked')).toHaveText(masked(good));
}

async function communications(page: Page, site: number) {
  const t = texts(site);
  await page.goto('/memberaccount/communications');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expectNoViolations(page);
  const prefs = page.getByTestId('preferences-form');
  // German-speaking sites offer fewer frequencies.
  await expect(prefs.getByTestId('communicationModel-REGULARLY')).toHaveCount(site === 2 || site === 7 ? 0 : 1);
  await prefs.getByTestId('communicationModel-ALL').check();
  await prefs.getByTestId('preferences-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.saved']);
  await prefs.getByTestId('communicationModel-NONE').check();
  await prefs.getByTestId('preferences-save').click();
  const survey = page.getByTestId('cancel-survey');
  await expect(survey).toBeVisible();
  await expect(survey).toContainText(t['communications.survey.title']);
  await expectNoViolations(page); // the survey, open as a modal
  await survey.locator('input[name="cancelReasonId"]').first().check();
  await survey.getByTestId('survey-send').click();
  await expect(survey).toBeHidden();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.cancelled']);

  // The partner opt-in: given, then withdrawn; each survives a reload.
  const optins = page.getByTestId('optins-form');
  await optins.getByTestId('optin-partner').check();
  await optins.getByTestId('optins-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.saved']);
  await page.reload();
  await expect(page.getByTestId('optin-partner')).toBeChecked();
  await page.getByTestId('optin-partner').uncheck();
  await page.getByTestId('optins-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.saved']);
  await page.reload();
  await expect(page.getByTestId('optin-partner')).not.toBeChecked();
  await expect(page.getByTestId('communicationModel-NONE')).toBeChecked();
}

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
  const promo = page.getByTestId('promotions').locator('[data-code="ETE20"]');
  const toggle = promo.getByTestId('voucher-toggle');
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
  test(`wallet, communications and vouchers, site #${index + 1} of the project`, async ({ page }, info) => {
    const site = sitesFor(info.project.name)[index];
    await signInAsDemo(page, site, '/', DEMO_EMAIL_2);
    await bankDetails(page, site);
    await communications(page, site);
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
  await page.getByTestId('bank-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.text.bank_details.notification']);
  await expect(page.getByTestId('stored-iban-masked')).toHaveText('FR•• •••• •••• •••• •••• •••2 606');
  await context.close();
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { closePopins } from './session';
import { expectNoViolations } from './a11y';

// My account (issue #12) with members registered for the test (the demo members stay as
// they are), on three sites in three languages per project: personal data refused then
// saved (key filters on), password changed (a browser signed in before is signed out),
// deactivated (signed out, login code 6); deleted forever (the email registers again);
// the personal-data form without scripts.

const LANG: Record<number, string> = { 2: 'de', 3: 'es', 4: 'it', 7: 'de', 73: 'fr', 76: 'nl' };
const texts = (site: number): Record<string, string> => {
  const lang = LANG[site] ?? 'fr';
  const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
  return { ...read(`../../app/locales/${lang}.json`), ...read(`../../app/locales/account/${lang}.json`) };
};
const sitesFor = (project: string) => (project === 'desktop' ? [2, 4, 76] : [3, 7, 73]);
const PASSWORD = 'Velvet-Orchard-42';
const NEW_PASSWORD = 'Nouveau-Jardin-77';

function lastMailLink(to: string, needle: string): string {
  const dir = join(process.env.ROSACE_E2E_DATA ?? '', 'outbox');
  const mails = readdirSync(dir)
    .sort()
    .reverse()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.includes(`To: ${to}`) && m.includes(needle));
  expect(mails.length).toBeGreaterThan(0);
  return mails[0].match(/https?:\/\/\S+/)![0];
}

/// Registers through the REST call (the registration page has its own test) and activates
/// through the emailed link; answers the status of the registration.
async function register(page: Page, site: number, email: string): Promise<number> {
  await page.goto(`/gr/authentication?site=${site}`);
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const res = await page.request.post('/api/authentication/v1/subscribe', {
    headers: { 'X-XSRF-TOKEN': xsrf },
    data: {
      siteId: site, email, password: PASSWORD, civility: 2, firstName: 'Zoe', lastName: 'Durand',
      birthDate: '15/08/1985', cgv: true, privacyPolicy: true,
    },
  });
  if (res.status() !== 201) return res.status();
  await page.goto(lastMailLink(email, 'signin=activate'));
  await page.getByTestId('activate-form').getByRole('button').click();
  await expect(page.getByTestId('auth-info')).toBeVisible();
  return 201;
}

async function signIn(page: Page, site: number, email: string, password: string, returnUrl = '/myaccount') {
  await page.goto(`/gr/authentication?site=${site}&ReturnUrl=${encodeURIComponent(returnUrl)}`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill(password);
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
}

async function signedIn(page: Page, site: number, email: string, returnUrl = '/myaccount') {
  await signIn(page, site, email, PASSWORD, returnUrl);
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
}

const memberEmail = (site: number, project: string, what: string) =>
  `acct.${what}.${site}.${project}.${Date.now()}@example.com`;

async function otherBrowser(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
  ]);
  return { context, page: await context.newPage() };
}

async function personalData(page: Page, site: number) {
  const t = texts(site);
  await page.goto('/myaccount/memberdata');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const form = page.getByTestId('profile-form');
  // Key filters: letters and space in names, digits in the phone.
  await form.getByTestId('field-firstName').fill('');
  await form.getByTestId('field-firstName').pressSequentially('Zoé2 Anne!');
  await expect(form.getByTestId('field-firstName')).toHaveValue('Zoé Anne');
  await form.getByTestId('field-phone').fill('');
  await form.getByTestId('field-phone').pressSequentially('06 12-34+56 78');
  await expect(form.getByTestId('field-phone')).toHaveValue('0612345678');
  // An impossible date: its own message, the form stays as typed.
  await form.getByTestId('field-birthDate').fill('31/02/1990');
  await form.getByTestId('profile-save').click();
  const dateError = form.locator('[data-error-for="DATE_OF_BIRTH"]');
  await expect(dateError).toHaveText(t['myprofile.errors.birthdate_invalid']);
  await expect(form.getByTestId('field-birthDate')).toHaveAttribute('aria-invalid', 'true');
  await expectNoViolations(page); // the form with its error
  await form.getByTestId('field-birthDate').fill('15/08/1985');
  await expect(dateError).toBeHidden();
  await form.getByTestId('gender-other').check();
  await form.getByTestId('field-jobId').selectOption('3');
  await form.getByTestId('profile-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.text.personaldata.notification']);
  await page.reload();
  await expect(form.getByTestId('field-firstName')).toHaveValue('Zoé Anne');
  await expect(form.getByTestId('field-phone')).toHaveValue('0612345678');
  await expect(form.getByTestId('field-birthDate')).toHaveValue('15/08/1985');
  await expect(form.getByTestId('gender-other')).toBeChecked();
  await expect(form.getByTestId('field-jobId')).toHaveValue('3');
}

async function changePassword(page: Page, site: number) {
  const t = texts(site);
  const form = page.getByTestId('password-form');
  await form.getByTestId('field-currentPassword').fill(PASSWORD);
  await form.getByTestId('field-password').fill(NEW_PASSWORD);
  await form.getByTestId('field-confirmPassword').fill(`${NEW_PASSWORD}x`);
  await form.getByTestId('password-save').click();
  await expect(form.locator('[data-form-error]')).toHaveText(t['myprofile.password.error.not_identical']);
  await expect(form.locator('[data-error-for="confirmPassword"]')).toBeVisible();
  await form.getByTestId('field-confirmPassword').fill(NEW_PASSWORD);
  await form.getByTestId('password-save').click();
  const dialog = page.getByTestId('password-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t['myprofile.password.notification']);
  await expectNoViolations(page); // the confirmation modal
  await dialog.getByRole('button').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.password.notification']);
}

async function deactivate(page: Page, site: number, email: string) {
  const t = texts(site);
  await page.goto('/myaccount?tab=deactivate');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const form = page.getByTestId('deactivate-form');
  await form.getByTestId('deactivate-submit').click();
  await expect(form.locator('[data-error-for="reason"]')).toHaveText(t['account.deactivate.error.reason']);
  await form.getByTestId('reason-privacy').check();
  await form.getByTestId('deactivate-submit').click();
  const dialog = page.getByTestId('deactivate-dialog');
  await expect(dialog).toBeVisible();
  await expectNoViolations(page);
  await dialog.getByTestId('deactivate-dialog-confirm').click();
  await expect(page).toHaveURL(/\/gr\/authentication\?info=account\.deactivate\.done/);
  await expect(page.getByTestId('auth-info')).toHaveText(t['account.deactivate.done']);
  // Signing in again: login code 6, in the site's language.
  await signIn(page, site, email, NEW_PASSWORD);
  await expect(page.getByTestId('auth-error')).toHaveText(t['auth.login.error.6']);
}

test('personal data, password change ending other sessions, deactivation', async ({ page, browser, baseURL }, info) => {
  test.setTimeout(240_000);
  for (const site of sitesFor(info.project.name)) {
    const email = memberEmail(site, info.project.name, 'flow');
    expect(await register(page, site, email)).toBe(201);
    await signedIn(page, site, email);
    await expectNoViolations(page, '/myaccount');
    await expect(page.getByTestId('account-menu').locator('a[data-section="personal-data"]')).toBeVisible();
    // A second browser signed in before the password changes.
    const other = await otherBrowser(browser, baseURL);
    await signedIn(other.page, site, email);
    await personalData(page, site);
    await changePassword(page, site);
    await other.page.goto('/myaccount');
    await expect(other.page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
    await other.context.close();
    // This browser stays signed in with its rotated session.
    await page.goto('/myaccount');
    await expect(page.getByTestId('account-tabs')).toBeVisible();
    await deactivate(page, site, email);
  }
});

test('delete forever: STEP1, STEP2, signed out, the email registers again', async ({ page }, info) => {
  test.setTimeout(180_000);
  const site = sitesFor(info.project.name)[0];
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'delete');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/myaccount?tab=delete');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('delete-step1')).toContainText(t['account.delete.kept']);
  await expectNoViolations(page);
  await page.getByTestId('delete-submit').click();
  const dialog = page.getByTestId('delete-dialog');
  await expect(dialog).toBeVisible();
  // Cancelling changes nothing.
  await dialog.getByRole('button', { name: t['account.cancel'] }).click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('delete-submit').click();
  await dialog.getByTestId('delete-dialog-confirm').click();
  await expect(page.getByTestId('delete-step2')).toBeVisible();
  await expect(page.getByTestId('delete-step2')).toContainText(t['account.delete.done']);
  await expect(page.getByTestId('delete-step1')).toBeHidden();
  await page.goto('/myaccount');
  await expect(page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email);
  await expect(page.getByTestId('account-email')).toContainText(email);
});

test('the personal-data form works without scripts', async ({ browser, baseURL }, info) => {
  const site = sitesFor(info.project.name)[1];
  const t = texts(site);
  const setup = await otherBrowser(browser, baseURL);
  const email = memberEmail(site, info.project.name, 'noscript');
  expect(await register(setup.page, site, email)).toBe(201);
  await setup.context.close();
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
  ]);
  const page = await context.newPage();
  await signIn(page, site, email, PASSWORD, '/myaccount/memberdata');
  await closePopins(page);
  await page.goto('/myaccount/memberdata');
  const form = page.getByTestId('profile-form');
  await form.getByTestId('field-phone').fill('06 12');
  await form.getByTestId('profile-save').click();
  await expect(form.locator('[data-error-for="PHONE"]')).toHaveText(t['myprofile.errors.phone_digits']);
  await expect(form.getByTestId('field-phone')).toHaveValue('06 12');
  await form.getByTestId('field-phone').fill('0612345678');
  await form.getByTestId('profile-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.text.personaldata.notification']);
  await expect(form.getByTestId('field-phone')).toHaveValue('0612345678');
  // Delete forever through the server-rendered confirmation step.
  await page.goto('/myaccount?tab=delete');
  await page.getByTestId('delete-submit').click();
  await page.getByTestId('delete-confirm').click();
  await expect(page.getByTestId('auth-info')).toHaveText(t['account.delete.done']);
  await context.close();
});

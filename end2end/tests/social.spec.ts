import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { closePopins } from './session';
import { memberEmail, PASSWORD, register, texts } from './member-steps';

// Social sign-in (spec 000 §3-§4) through the real redirects: the shop's
// "Continue with …" form, the local test identity provider's page (end2end/run.sh starts
// it; it signs real RS256 ID tokens), the callback, then codes 13, 12 and 1. Site 1, in
// French; on the phone every step is also checked for horizontal scrolling (WCAG 1.4.10).

const SITE = 1;
const RETURN = '/myaccount/memberdata';

/// Starts "Continue with <provider>" on the sign-in page and signs in at the test provider
/// as `email`; leaves the browser wherever the shop's callback sends it.
async function throughProvider(page: Page, provider: string, email: string, given = 'Camille', family = 'Rosier') {
  await page.goto(`/gr/authentication?site=${SITE}&ReturnUrl=${encodeURIComponent(RETURN)}`);
  await page.getByTestId(`social-${provider}`).click();
  // The provider's own page, on its own origin.
  await expect(page).toHaveURL(new RegExp(`^${process.env.ROSACE_E2E_IDP ?? 'http://127.0.0.1'}.*/authorize\\?`));
  await page.locator('#email').fill(email);
  await page.locator('#given_name').fill(given);
  await page.locator('#family_name').fill(family);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signedInAt(page: Page, path: string) {
  await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}(\\?|$)`));
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
}

/// Signs out by forgetting this browser's cookies (the consent answer stays).
async function signOut(page: Page, baseURL: string) {
  await page.context().clearCookies();
  await page.context().addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL },
  ]);
}

test('a new member registers with a provider (code 13), then signs in with it', async ({ page, baseURL }, info) => {
  const t = texts(SITE);
  const email = memberEmail(SITE, info.project.name, `social13-${info.retry}`);
  await throughProvider(page, 'google', email, 'Léa', 'Dupont-Martin');

  // Code 13: the third-party registration, pre-filled from the ID token (the hyphen, which
  // name fields refuse, as a space: the pre-filled form once refused itself).
  await expect(page).toHaveURL(/\/gr\/registration\?step=socialregister&ticket=/);
  await expect(page.getByTestId('auth-info')).toHaveText(t['auth.social.code.13']);
  const form = page.getByTestId('social-register-form');
  await expect(form).toContainText(email);
  await expect(form.locator('input[name="firstName"]')).toHaveValue('Léa');
  await expect(form.locator('input[name="lastName"]')).toHaveValue('Dupont Martin');
  await expectNoViolations(page);
  await form.locator('input[name="civility"][value="2"]').check();
  await form.locator('input[name="cgv"]').check();
  await form.locator('input[name="privacyPolicy"]').check();
  await form.getByRole('button').click();

  // Signed in, on the page asked for, with the provider listed on the account.
  await signedInAt(page, RETURN);
  const links = page.getByTestId('social-links');
  await expect(links).toContainText(`Google · ${email}`);
  // Without a password the provider is the only way in: it stays linked.
  await links.getByTestId('unlink-google').click();
  await expect(page.getByTestId('social-notice')).toHaveText(t['auth.social.unlink.last']);
  await expect(page.getByTestId('social-links')).toContainText(`Google · ${email}`);
  await expectNoViolations(page);

  // Next time the known association signs in straight away (code 1).
  await signOut(page, baseURL!);
  await page.goto('/myaccount/memberdata');
  await expect(page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  await throughProvider(page, 'google', email);
  await signedInAt(page, RETURN);
  await expect(page.getByTestId('social-links')).toContainText(`Google · ${email}`);
});

test('an existing account associates a provider after its password (code 12), signs in with it, and unlinks it', async ({ page, baseURL }, info) => {
  const t = texts(SITE);
  const email = memberEmail(SITE, info.project.name, `social12-${info.retry}`);
  expect(await register(page, SITE, email)).toBe(201);
  await signOut(page, baseURL!);

  await throughProvider(page, 'facebook', email);
  // Code 12: the association step, asking for the account's password.
  await expect(page).toHaveURL(/\/gr\/authentication\?step=associate&ticket=/);
  await expect(page.getByTestId('auth-info')).toHaveText(t['auth.social.code.12']);
  const form = page.getByTestId('associate-form');
  await expect(form).toContainText(email);
  await expectNoViolations(page);
  // A wrong password: login code 3, the step stays.
  await form.locator('input[name="password"]').fill(`${PASSWORD}-wrong`);
  await form.getByRole('button').click();
  await expect(page.getByTestId('auth-error')).toHaveText(t['auth.login.error.3']);
  await page.getByTestId('associate-form').locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('associate-form').getByRole('button').click();
  await signedInAt(page, RETURN);
  await expect(page.getByTestId('social-links')).toContainText(`Facebook · ${email}`);

  // The known association signs in directly.
  await signOut(page, baseURL!);
  await throughProvider(page, 'facebook', email);
  await signedInAt(page, RETURN);

  // Unlinked: the account has a password, so it may go.
  await page.getByTestId('social-links').getByTestId('unlink-facebook').click();
  await expect(page.getByTestId('social-notice')).toHaveText(t['auth.social.unlink.done']);
  await expect(page.getByTestId('social-links')).toContainText(t['auth.social.links.none']);
  await expectNoViolations(page);

  // The provider no longer signs in: the email leads to the association step again.
  await signOut(page, baseURL!);
  await throughProvider(page, 'facebook', email);
  await expect(page).toHaveURL(/\/gr\/authentication\?step=associate&ticket=/);
});

test('the sign-in page with its providers does not scroll sideways', async ({ page }) => {
  await page.goto(`/gr/authentication?site=${SITE}`);
  await expect(page.getByTestId('social-form').getByRole('button')).toHaveCount(3);
  await expectNoViolations(page);
});

test('a member without a password signs in again with the provider before changing the email', async ({ page }, info) => {
  const t = texts(SITE);
  const email = memberEmail(SITE, info.project.name, `socialreauth-${info.retry}`);
  const moved = memberEmail(SITE, info.project.name, `socialmoved-${info.retry}`);
  await throughProvider(page, 'google', email);
  const register = page.getByTestId('social-register-form');
  await register.locator('input[name="civility"][value="2"]').check();
  await register.locator('input[name="cgv"]').check();
  await register.locator('input[name="privacyPolicy"]').check();
  await register.getByRole('button').click();
  await signedInAt(page, RETURN);

  // No password to ask: the email form says to sign in again with Google first.
  const emailForm = page.getByTestId('email-form');
  await expect(emailForm.getByTestId('reauth-email-reauth')).toHaveCount(0);
  await emailForm.locator('input[name="Email"]').fill(moved);
  await emailForm.locator('input[name="ConfirmEmail"]').fill(moved);
  await emailForm.getByTestId('email-save').click();
  await expect(page.getByTestId('account-error')).toHaveText(t['reauth.social.required']);
  await expectNoViolations(page);
  await page.getByTestId('reauth-with-google').first().click();
  await expect(page).toHaveURL(/\/authorize\?.*prompt=login/);
  await page.locator('#email').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/myaccount\/memberdata\?notice=reauth\.social\.fresh/);
  await expect(page.getByTestId('reauth-fresh').first()).toHaveText(t['reauth.social.fresh']);
  await expectNoViolations(page);
  const again = page.getByTestId('email-form');
  await again.locator('input[name="Email"]').fill(moved);
  await again.locator('input[name="ConfirmEmail"]').fill(moved);
  await again.getByTestId('email-save').click();
  await expect(page.getByTestId('email-dialog')).toBeVisible();
  await expect(page.getByTestId('email-dialog')).toContainText(t['myprofile.email.sent']);
});

import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import {
  NEW_PASSWORD, PASSWORD, lastMail, lastMailLink, memberEmail, otherBrowser, register, signIn, signedIn, texts,
} from './member-steps';
import { closePopins, signInByCall } from './session';

// My account with members registered for the test (the demo members stay as
// they are): the email changed through the link mailed to the new address; deleted forever
// (confirmed in a modal, the email registers again); the personal-data
// form and the deletion without scripts. Personal data, the password change and
// deactivation are steps of member-journey.spec.ts.

const sitesFor = (project: string) => (project === 'desktop' ? [2, 4, 76] : [3, 7, 73]);

test('email change: refused when the two differ, a link to the new address, a notice to the old, signed in with the new one', async ({ page }, info) => {
  const site = sitesFor(info.project.name)[2];
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'mail');
  const newEmail = memberEmail(site, info.project.name, 'mailnew');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/myaccount/memberdata');
  await page.goto('/myaccount/memberdata');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const form = page.getByTestId('email-form');
  await form.locator('input[name="Email"]').fill(newEmail);
  await form.locator('input[name="ConfirmEmail"]').fill(`x${newEmail}`);
  await form.getByTestId('email-save').click();
  await expect(form.locator('[data-error-for="CONFIRM_EMAIL"]')).toHaveText(t['myprofile.email.error.not_identical']);
  await form.locator('input[name="ConfirmEmail"]').fill(newEmail);
  // Review N1: the current password is asked; a wrong one keeps what was typed.
  await form.getByTestId('reauth-email-reauth').fill('Velvet-Orchard-41');
  await form.getByTestId('email-save').click();
  await expect(form.getByTestId('reauth-email-reauth-error')).toHaveText(t['reauth.error.password']);
  await expect(form.locator('input[name="Email"]')).toHaveValue(newEmail);
  await expectNoViolations(page);
  await form.getByTestId('reauth-email-reauth').fill(PASSWORD);
  await form.getByTestId('email-save').click();
  const dialog = page.getByTestId('email-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t['myprofile.email.sent']);
  expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
  await expectNoViolations(page); // the confirmation modal
  await dialog.getByRole('button').click();
  await expect(page.getByTestId('pending-email')).toContainText(newEmail);
  // Nothing changes until the link is opened; the old address is told.
  await expect(page.getByTestId('current-email')).toContainText(email);
  expect(lastMail(email, t['mail.email_change_notice.subject'])).toContain(newEmail);
  await page.goto(lastMailLink(newEmail, 'confirmemail='));
  await page.getByTestId('confirm-email-form').getByRole('button').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.email.confirmed']);
  await expect(page.getByTestId('current-email')).toContainText(newEmail);
  // The link is single-use, and the new address is the one that signs in.
  await page.goto(lastMailLink(newEmail, 'confirmemail='));
  await page.getByTestId('confirm-email-form').getByRole('button').click();
  await expect(page.getByTestId('account-notice')).toBeHidden();
  await expect(page.getByText(t['myprofile.email.error.link'])).toBeVisible();
  await page.context().clearCookies({ name: 'rosace_session' });
  // The old address is free: signing in with it leads to registration.
  await page.goto(`/gr/authentication?site=${site}`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  await expect(page).toHaveURL(/\/gr\/registration/);
  await signedIn(page, site, newEmail);
  await expect(page.getByTestId('account-email')).toContainText(newEmail);
});

test('delete forever: what goes and what stays, confirmed in a modal, signed out, the email registers again', async ({ page }, info) => {
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
  // Modal: the page behind it is inert, so its own button cannot be reached.
  expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
  await expectNoViolations(page); // the confirmation modal
  // Cancelling changes nothing.
  await dialog.getByRole('link', { name: t['account.cancel'] }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('delete-step1')).toBeVisible();
  await page.getByTestId('delete-submit').click();
  await dialog.getByTestId('reauth-delete-reauth').fill(PASSWORD);
  await dialog.getByTestId('delete-confirm').click();
  await expect(page).toHaveURL(/\/gr\/authentication\?info=account\.delete\.done/);
  await expect(page.getByTestId('auth-info')).toHaveText(t['account.delete.done']);
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
  await expect(page.getByTestId('reauth-delete-reauth-error')).toHaveText(t['reauth.error.required']);
  await expect(page.getByTestId('delete-dialog')).toBeVisible();
  await page.getByTestId('reauth-delete-reauth').fill(PASSWORD);
  await page.getByTestId('delete-confirm').click();
  await expect(page.getByTestId('auth-info')).toHaveText(t['account.delete.done']);
  await context.close();
});

test('sign out everywhere else: the other browser is signed out, this one stays', async ({ page, browser, baseURL }, info) => {
  const site = sitesFor(info.project.name)[2];
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'endothers');
  expect(await register(page, site, email)).toBe(201);
  const other = await otherBrowser(browser, baseURL);
  await signedIn(other.page, site, email);
  await signedIn(page, site, email, '/myaccount/memberdata');
  await page.goto('/myaccount/memberdata');
  const section = page.getByRole('region', { name: t['myprofile.sessions.title'] });
  await expect(section).toBeVisible();
  await expectNoViolations(page);
  await page.getByTestId('reauth-sessions-reauth').fill(PASSWORD);
  await page.getByTestId('end-sessions').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.sessions.ended']);
  await expectNoViolations(page);
  // The other browser's session is gone; this one still opens members' pages.
  await other.page.goto('/myaccount');
  await expect(other.page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  await page.goto('/myaccount');
  await expect(page.getByTestId('account-tabs')).toBeVisible();
  await other.context.close();
});

test('the notice of a change secures the account: everyone signed out, the address back, a new password', async ({ page, browser, baseURL }, info) => {
  const site = sitesFor(info.project.name)[1];
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'secure');
  const taken = memberEmail(site, info.project.name, 'securetaker');
  expect(await register(page, site, email)).toBe(201);
  // Someone who knows the password changes the email from another browser.
  const taker = await otherBrowser(browser, baseURL);
  await signedIn(taker.page, site, email, '/myaccount/memberdata');
  const form = taker.page.getByTestId('email-form');
  await form.locator('input[name="Email"]').fill(taken);
  await form.locator('input[name="ConfirmEmail"]').fill(taken);
  await form.getByTestId('reauth-email-reauth').fill(PASSWORD);
  await form.getByTestId('email-save').click();
  await expect(taker.page.getByTestId('email-dialog')).toBeVisible();
  await taker.page.goto(lastMailLink(taken, 'confirmemail='));
  await taker.page.getByTestId('confirm-email-form').getByRole('button').click();
  await expect(taker.page.getByTestId('current-email')).toContainText(taken);

  // The member opens the notice sent to the old address: the page says what will happen.
  await page.goto(lastMailLink(email, 'step=secure'));
  const secure = page.getByTestId('secure-form');
  await expect(secure).toContainText(email);
  await expectNoViolations(page);
  await secure.getByTestId('secure-submit').click();
  await expect(page).toHaveURL(/updatepassword=1/);
  await expect(page.getByTestId('auth-info')).toHaveText(t['account.secure.done']);
  await page.getByTestId('update-password-form').locator('#newPassword').fill(NEW_PASSWORD);
  await page.getByTestId('update-password-form').getByRole('button').click();
  // The taker is signed out; the member signs in at the old address with the new password.
  await taker.page.goto('/myaccount');
  await expect(taker.page).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  await taker.context.close();
  await signInByCall(page.context(), site, email, NEW_PASSWORD);
  await page.goto('/myaccount');
  await expect(page.getByTestId('account-email')).toContainText(email);
  // The link works once.
  await page.goto(lastMailLink(email, 'step=secure'));
  await expect(page.getByTestId('auth-error')).toHaveText(t['account.secure.invalid']);
});

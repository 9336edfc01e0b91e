import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from '@playwright/test';
import { expect } from './fixtures';
import { closePopins, signInByCall } from './session';
import { expectNoViolations } from './a11y';

// The member-account steps that the account, address and wallet specs and the
// whole member journey share: each one is what a member does on one page, checked as they
// would see it, in the site's language.

const SITES = [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76];
export const firstSale = (site: number) => (SITES.indexOf(site) + 1) * 1000 + 1;
const LANG: Record<number, string> = { 2: 'de', 3: 'es', 4: 'it', 7: 'de', 66: 'es', 69: 'it', 73: 'fr', 76: 'nl' };

/// The site's texts: the shell's, the account areas' and social sign-in's (no key differs between them).
export const texts = (site: number): Record<string, string> => {
  const lang = LANG[site] ?? 'fr';
  const read = (dir: string) =>
    JSON.parse(readFileSync(new URL(`../../app/locales/${dir}${lang}.json`, import.meta.url), 'utf8'));
  return { ...read(''), ...read('address/'), ...read('wallet/'), ...read('account/'), ...read('social/') };
};

export const PASSWORD = 'Velvet-Orchard-42';
export const NEW_PASSWORD = 'Nouveau-Jardin-77';

export const memberEmail = (site: number, project: string, what: string) =>
  `acct.${what}.${site}.${project}.${Date.now()}@example.com`;
export const letters = () =>
  Array.from({ length: 6 }, () => 'abcdefghijklmnop'[Math.floor(Math.random() * 16)]).join('');

/// An enhanced form marks itself aria-busy from the click until its answer is swapped in.
/// A notice carried in the URL is already on the page before the answer comes back (the
/// previous save put it there), so a reload must wait for this, or it cancels the POST.
export async function settled(page: Page) {
  await expect(page.locator('form[aria-busy="true"]')).toHaveCount(0);
}

/// Counts the page's whole-document loads from now on: an enhanced form's answer and
/// in-app navigation make none.
export function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => loads++);
  return () => loads;
}

/// The newest mail in the shop's outbox to `to` that contains `needle`.
export function lastMail(to: string, needle: string): string {
  const dir = join(process.env.ROSACE_E2E_DATA ?? '', 'outbox');
  const mails = readdirSync(dir)
    .sort()
    .reverse()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.includes(`To: ${to}`) && m.includes(needle));
  expect(mails.length, `a mail to ${to} with ${needle}`).toBeGreaterThan(0);
  return mails[0];
}

export function lastMailLink(to: string, needle: string): string {
  return lastMail(to, needle).match(/https?:\/\/\S+/)![0];
}

/// Fills the registration form as a new member types it (the fields the site asks for, a
/// zip code and city of site 1 or 2) and sends it.
export async function fillRegistration(form: Locator, site: number, firstName: string, lastName: string) {
  await form.locator('input[name="password"]').fill(PASSWORD);
  if ((await form.locator('input[name="civility"]').count()) > 0) await form.locator('input[name="civility"][value="2"]').check();
  await form.locator('input[name="firstName"]').fill(firstName);
  await form.locator('input[name="lastName"]').fill(lastName);
  if ((await form.locator('input[name="birthDate"]').count()) > 0) await form.locator('input[name="birthDate"]').fill('15/08/1985');
  if ((await form.locator('input[name="zipCode"]').count()) > 0) {
    await form.locator('input[name="zipCode"]').fill(site === 1 ? '75002' : '80331');
    await form.locator('input[name="city"]').fill(site === 1 ? 'Paris' : 'München');
  }
  await form.locator('input[name="cgv"]').check();
  await form.locator('input[name="privacyPolicy"]').check();
  await form.locator('button[type="submit"]').click();
}

/// Registers through the REST call (the registration page has its own test) and activates
/// through the emailed link; answers the status of the registration.
export async function register(page: Page, site: number, email: string): Promise<number> {
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

export async function signIn(page: Page, site: number, email: string, password: string, returnUrl = '/myaccount') {
  await page.goto(`/gr/authentication?site=${site}&ReturnUrl=${encodeURIComponent(returnUrl)}`);
  await page.getByTestId('email-form').locator('input[name="email"]').fill(email);
  await page.getByTestId('email-form').getByRole('button').click();
  await page.getByTestId('password-form').locator('input[name="password"]').fill(password);
  await page.getByTestId('password-form').locator('button[type="submit"]').click();
}

export async function signedIn(page: Page, site: number, email: string, returnUrl = '/myaccount') {
  await signInByCall(page.context(), site, email, PASSWORD);
  await page.goto(returnUrl);
  await expect(page.getByTestId('login-element')).toBeVisible();
  await closePopins(page);
}

/// A second browser (its own cookies) that has answered the consent banner.
export async function otherBrowser(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([
    { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
  ]);
  return { context, page: await context.newPage() };
}

// ---- address book and delivery address ----

// Per site: a refused zip code with the message key it gets, the accepted one as typed and
// as shown, a city, a phone typed plainly and as the site writes it (spec 001 §5).
const ADDRESS: Record<number, { bad: string; badKey: string; zip: string; shown: string; city: string; phone: string; phoneShown: string }> = {
  1: { bad: '7500', badKey: 'errors.address.wrong_zipcode.notification', zip: '69002', shown: '69002', city: 'Lyon', phone: '0478000000', phoneShown: '04 78 00 00 00' },
  2: { bad: '27498', badKey: 'errors.address.forbidden_zipcode.notification', zip: '80331', shown: '80331', city: 'München', phone: '08912345678', phoneShown: '08 912345678' },
  76: { bad: '1011 SA', badKey: 'errors.address.forbidden_zipcode.notification', zip: '3511ab', shown: '3511 AB', city: 'Utrecht', phone: '0301234567', phoneShown: '03 01 23 45 67' },
  3: { bad: '35001', badKey: 'errors.address.forbidden_zipcode.notification', zip: '08001', shown: '08001', city: 'Barcelona', phone: '612345678', phoneShown: '612 345 678' },
  4: { bad: '2012', badKey: 'errors.address.wrong_zipcode.notification', zip: '00118', shown: '00118', city: 'Roma', phone: '3123456789', phoneShown: '312 3456789' },
  73: { bad: 'L-10', badKey: 'errors.address.wrong_zipcode.notification', zip: 'L-1009', shown: '1009', city: 'Luxembourg', phone: '621123456', phoneShown: '621 123 456' },
};
// The Violeta sites of Spain and Italy take their country's addresses.
ADDRESS[66] = ADDRESS[3];
ADDRESS[69] = ADDRESS[4];

export async function fillAddress(page: Page, site: number, lastName: string, zip: string) {
  const c = ADDRESS[site];
  const form = page.locator('#address-form').getByTestId('address-form');
  await form.getByTestId('address-firstName').fill('Zoë');
  await form.getByTestId('address-lastName').fill(lastName);
  await form.getByTestId('address-details').fill('5 Avenue Test');
  await form.getByTestId('address-zipCode').fill(zip);
  await form.getByTestId('address-city').fill(c.city);
  await form.getByTestId('address-phone').fill(c.phone);
  return form;
}

/// Adds an address as typed right the first time (a member's first one is their favourite).
export async function addAddress(page: Page, site: number, lastName: string) {
  const t = texts(site);
  await page.goto('/postsales/myaccount/addresses/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const form = await fillAddress(page, site, lastName, ADDRESS[site].zip);
  await form.getByTestId('address-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.saved']);
  await expect(page.getByTestId('address').filter({ hasText: lastName })).toHaveCount(1);
}

/// Adds an address with a wrong zip code (the spec's message, nothing saved), then the right
/// one, and makes it the favourite.
export async function favouriteAddress(page: Page, site: number, lastName: string) {
  const c = ADDRESS[site];
  const t = texts(site);
  await page.goto('/postsales/myaccount/addresses/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const before = await page.getByTestId('address').count();
  const form = await fillAddress(page, site, lastName, c.bad);
  // The phone is grouped as the site writes it while typing.
  await expect(form.getByTestId('address-phone')).toHaveValue(c.phoneShown);
  await form.getByTestId('address-save').click();
  await expect(form.getByTestId('address-form-error')).toHaveText(t[c.badKey]);
  await expect(form.getByTestId('address-zipCode')).toHaveAttribute('aria-invalid', 'true');
  await expectNoViolations(page);
  await page.reload();
  await expect(page.getByTestId('address')).toHaveCount(before);

  const again = await fillAddress(page, site, lastName, c.zip);
  await again.getByTestId('address-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.saved']);
  const card = page.getByTestId('address').filter({ hasText: lastName });
  await expect(card).toContainText(c.shown);
  await expect(card).toContainText(c.phoneShown);
  // The member already has a favourite: the new address is not it until made so.
  await expect(card).toHaveAttribute('data-favorite', 'false');
  await card.getByTestId('address-make-favorite').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['address.notice.favorite']);
  await expect(page.getByTestId('address').filter({ hasText: lastName })).toHaveAttribute('data-favorite', 'true');
  await expect(page.locator('[data-testid="address"][data-favorite="true"]')).toHaveCount(1);
  await expectNoViolations(page);
}

/// Buys one unit of a product of the site's first sale: the favourite address (`lastName`)
/// is the delivery address already chosen at checkout. `saveCard`: the sandbox keeps the card.
export async function buyWithFavouriteAddress(page: Page, site: number, lastName: string, productOffset: number, saveCard = false) {
  const sale = firstSale(site);
  await page.goto(`/product/${sale}/${sale * 100 + productOffset}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.locator('[data-testid="product-option"]:not([disabled])').first().check();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('added-to-cart')).toBeVisible();
  await page.goto('/cart');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const chosen = page.getByTestId('delivery-option').filter({ hasText: lastName });
  await expect(chosen.locator('input[type="radio"]')).toBeChecked();
  await page.getByTestId('checkout').click();
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  if (saveCard) await page.getByTestId('save-card').check();
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('order-confirmed')).toBeVisible();
}

/// The last order's detail shows the delivery address it was paid with.
export async function orderShowsAddress(page: Page, site: number, lastName: string) {
  const c = ADDRESS[site];
  await page.goto('/my-orders');
  await page.getByTestId('order').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/my-orders\/fs\/\d+$/);
  const delivery = page.getByTestId('order-delivery');
  await expect(delivery).toContainText(lastName);
  await expect(delivery).toContainText(`${c.shown} ${c.city}`);
}

// ---- personal data, password, deactivation ----

export async function personalData(page: Page, site: number) {
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
  await settled(page);
  await page.reload();
  await expect(form.getByTestId('field-firstName')).toHaveValue('Zoé Anne');
  await expect(form.getByTestId('field-phone')).toHaveValue('0612345678');
  // Written back as the site's forms ask for it, the registration's way too (dots in
  // Germany and Austria).
  await expect(form.getByTestId('field-birthDate')).toHaveValue([2, 7].includes(site) ? '15.08.1985' : '15/08/1985');
  await expect(form.getByTestId('gender-other')).toBeChecked();
  await expect(form.getByTestId('field-jobId')).toHaveValue('3');
}

/// Changes the password on the personal-data page (a wrong confirmation first); `other` is
/// a browser signed in before: it is signed out, this one stays in with its rotated session;
/// the member is told by email.
export async function changePassword(page: Page, site: number, other: Page, email: string) {
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
  lastMail(email, t['mail.password_changed.subject']);
  await other.goto('/myaccount');
  await expect(other).toHaveURL(/\/gr\/authentication\?ReturnUrl=/);
  await page.goto('/myaccount');
  await expect(page.getByTestId('account-tabs')).toBeVisible();
}

/// Deactivates (a reason is required), then signing in again answers login code 6.
export async function deactivate(page: Page, site: number, email: string) {
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
  expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
  // Review N1: a wrong password is refused in the dialog, which stays open with why.
  await dialog.getByTestId('reauth-deactivate-reauth').fill('not-my-password');
  await dialog.getByTestId('deactivate-confirm').click();
  await expect(dialog.getByTestId('reauth-deactivate-reauth-error')).toHaveText(t['reauth.error.password']);
  await expectNoViolations(page); // the dialog with its error
  await dialog.getByTestId('reauth-deactivate-reauth').fill(NEW_PASSWORD);
  await dialog.getByTestId('deactivate-confirm').click();
  await expect(page).toHaveURL(/\/gr\/authentication\?info=account\.deactivate\.done/);
  await expect(page.getByTestId('auth-info')).toHaveText(t['account.deactivate.done']);
  await signIn(page, site, email, NEW_PASSWORD);
  await expect(page.getByTestId('auth-error')).toHaveText(t['auth.login.error.6']);
}

// ---- wallet and communications ----

// Each site's IBAN (SWIFT registry examples), the same with a wrong check digit, a BIC.
const IBANS: Record<number, [string, string, string]> = {
  1: ['FR14 2004 1010 0505 0001 3M02 606', 'FR15 2004 1010 0505 0001 3M02 606', 'BNPAFRPP'],
  2: ['de89 3704 0044 0532 0130 00', 'DE88 3704 0044 0532 0130 00', 'DEUTDEFF'],
  3: ['ES91 2100 0418 4502 0005 1332', 'ES92 2100 0418 4502 0005 1332', 'CAIXESBB'],
  4: ['IT60 X054 2811 1010 0000 0123 456', 'IT61 X054 2811 1010 0000 0123 456', 'BCITITMM'],
  7: ['AT61 1904 3002 3457 3201', 'AT62 1904 3002 3457 3201', 'BKAUATWW'],
  73: ['LU28 0019 4006 4475 0000', 'LU29 0019 4006 4475 0000', 'BCEELULL'],
  76: ['nl91abna0417164300', 'NL92ABNA0417164300', 'ABNANL2A'],
};
/// The masked form the page shows: country, bullets, last four, in groups of four.
export const maskedIban = (iban: string) => {
  const plain = iban.replace(/\s/g, '').toUpperCase();
  const shown = plain.slice(0, 2) + '•'.repeat(plain.length - 6) + plain.slice(-4);
  return shown.match(/.{1,4}/g)!.join(' ');
};

/// Bank details with a wrong check digit (its message, the field flagged until it changes),
/// then the right ones: saved, shown masked, never in full.
export async function bankDetails(page: Page, site: number) {
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
  await form.getByTestId('bank-iban').fill(good);
  await expect(ibanError).toBeHidden();
  // Review N1: refunds go to this account, so it takes the password (after a password
  // change in the journey, the new one); without it the form says so and keeps the rest.
  await form.getByTestId('bank-save').click();
  await expect(form.getByTestId('reauth-bank-reauth-error')).toHaveText(t['reauth.error.required']);
  await expect(form.getByTestId('bank-iban')).toHaveValue(good);
  await form.getByTestId('reauth-bank-reauth').fill(NEW_PASSWORD);
  await form.getByTestId('bank-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['myprofile.text.bank_details.notification']);
  await expect(page.getByTestId('stored-iban-masked')).toHaveText(maskedIban(good));
  await expect(page.locator('body')).not.toContainText(good.replace(/\s/g, '').toUpperCase());
  await page.reload();
  await expect(page.getByTestId('stored-iban-masked')).toHaveText(maskedIban(good));
}

/// The card saved at checkout is listed by its last four digits, and deleted.
export async function savedCard(page: Page, site: number) {
  const t = texts(site);
  await page.goto('/postsales/myaccount/wallet/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const card = page.getByTestId('card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('4242');
  await expect(page.getByTestId('cards-empty')).toBeHidden();
  await card.getByTestId('card-delete').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['wallet.notice.card_deleted']);
  await expect(page.getByTestId('card')).toHaveCount(0);
  await expect(page.getByTestId('cards-empty')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('card')).toHaveCount(0);
}

/// Frequency NONE opens the cancel survey; the partner opt-in is given, then withdrawn;
/// each survives a reload.
export async function communications(page: Page, site: number) {
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

  const optins = page.getByTestId('optins-form');
  await optins.getByTestId('optin-partner').check();
  await optins.getByTestId('optins-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.saved']);
  await settled(page);
  await page.reload();
  await expect(page.getByTestId('optin-partner')).toBeChecked();
  await page.getByTestId('optin-partner').uncheck();
  await page.getByTestId('optins-save').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.saved']);
  await settled(page);
  await page.reload();
  await expect(page.getByTestId('optin-partner')).not.toBeChecked();
  await expect(page.getByTestId('communicationModel-NONE')).toBeChecked();

  // A brand alert: followed, listed after a reload, dropped.
  await expect(page.getByTestId('brands-empty')).toBeVisible();
  await page.locator('.brand-alerts__more summary').click();
  const option = page.getByTestId('brands-options').getByTestId('brand-alert').first();
  const brandId = await option.getAttribute('data-brand-id');
  await option.getByRole('button').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.brand_followed']);
  await settled(page);
  await page.reload();
  const followed = page.getByTestId('brands-followed').locator(`[data-brand-id="${brandId}"]`);
  await expect(followed).toHaveCount(1);
  await expect(page.getByTestId('brands-empty')).toBeHidden();
  await followed.getByRole('button').click();
  await expect(page.getByTestId('account-notice')).toHaveText(t['communications.notice.brand_unfollowed']);
  await settled(page);
  await page.reload();
  await expect(page.getByTestId('brands-followed').getByTestId('brand-alert')).toHaveCount(0);
}

/// The first option on sale of product `productOffset` of `sale`, put in the basket.
export async function addToCart(page: Page, sale: number, productOffset: number) {
  await page.goto(`/product/${sale}/${sale * 100 + productOffset}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.locator('[data-testid="product-option"]:not([disabled])').first().check();
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('added-to-cart')).toBeVisible();
}

/// Cart → checkout with the demo card; answers the new order's id.
export async function buy(page: Page, sale: number, productOffset: number): Promise<string> {
  await addToCart(page, sale, productOffset);
  await page.goto('/cart');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('checkout').click();
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('order-confirmed')).toBeVisible();
  await page.goto('/my-orders');
  return (await page.getByTestId('order').first().getAttribute('data-order-id'))!;
}

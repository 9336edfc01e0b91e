import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { addAddress, buy, firstSale, memberEmail, register, signedIn } from './member-steps';

// After the sale as a member of its own (registered here, so no other spec's
// cart or orders get in the way): buy, the operator's simulator delivers the order
// (`server orders advance`), the invoice downloads as a PDF, a return is asked for through
// the returns form and the order shows return_requested. Axe on the detail page.

const LANG: Record<number, string> = { 73: 'fr', 76: 'nl' };
const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${file}`, import.meta.url), 'utf8'));
const texts = (site: number): Record<string, string> => ({
  ...read(`${LANG[site]}.json`),
  ...read(`orders/${LANG[site]}.json`),
  ...read(`aftersale/${LANG[site]}.json`),
});

function simulator(args: string[]): string {
  const bin = process.env.ROSACE_E2E_BIN;
  expect(bin, 'ROSACE_E2E_BIN (end2end/run.sh sets it)').toBeTruthy();
  return execFileSync(bin!, ['orders', ...args], {
    env: { ...process.env, ROSACE_DATA_DIR: process.env.ROSACE_E2E_DATA ?? '', RUST_LOG: 'warn' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

test('a delivered order: the invoice as a PDF, then a return that moves it to return_requested', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 73 : 76;
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'aftersale');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/');
  await addAddress(page, site, 'Retour');
  await buy(page, firstSale(site), 5);

  await page.goto('/my-orders');
  const order = page.getByTestId('order').first();
  const id = (await order.getAttribute('data-order-id'))!;
  await page.goto(`/my-orders/fs/${id}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // Not delivered yet: no returns form, a note saying when.
  await expect(page.getByTestId('returns-form')).toHaveCount(0);
  await expect(page.getByTestId('returns-not-yet')).toHaveText(t['aftersale.returns.not_yet']);

  // The invoice: a PDF download with its number in the file name.
  const link = page.getByTestId('invoice-download');
  await expect(link).toHaveText(t['aftersale.invoice.download']);
  const href = (await link.getAttribute('href'))!;
  expect(href).toBe(`/api/postsale/v1/orders/${id}/invoice`);
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-disposition']).toMatch(/^attachment; filename="RS-\d{4}-\d{6}\.pdf"$/);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // The warehouse delivers it.
  for (const step of ['in_preparation', 'shipped', 'received']) {
    expect(simulator(['advance', id])).toContain(`-> ${step}`);
  }
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'received');
  const form = page.getByTestId('returns-form');
  await expect(form).toBeVisible();
  await expectNoViolations(page);

  // The precision is asked for once a reason has some, and offers only that reason's.
  const sub = form.getByTestId('return-sub-reason');
  await expect(sub).toBeHidden();
  await form.getByTestId('return-reason').selectOption('defective');
  await expect(sub).toBeVisible();
  await expect(sub.locator('option[value="broken"]')).toBeEnabled();
  await expect(sub.locator('option[value="too_big"]')).toBeDisabled();
  // Nothing chosen: the spec's refusal, in the site's language.
  await form.getByTestId('return-reason').selectOption('size');
  await expect(sub.locator('option[value="too_big"]')).toBeEnabled();
  await expect(sub.locator('option[value="broken"]')).toBeDisabled();
  await form.getByTestId('return-send').click();
  await expect(form.getByTestId('return-error')).toHaveAttribute('data-code', 'no_products');
  await expect(form.getByTestId('return-error')).toHaveText(t['aftersale.errors.no_products']);

  // One unit, its reason and sub-reason: taken, the page shows the order's new status.
  await form.getByTestId('return-quantity').first().fill('1');
  await form.getByTestId('return-sub-reason').selectOption('too_big');
  await form.getByTestId('return-send').click();
  await expect(page).toHaveURL(new RegExp(`/my-orders/fs/${id}\\?aftersale_notice=aftersale\\.returns\\.success`));
  await expect(page.getByTestId('aftersale-notice')).toHaveText(t['aftersale.returns.success']);
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'return_requested');
  await expect(page.getByTestId('order-status')).toHaveText(t['orders.status.return_requested']);
  await expect(page.getByTestId('order-event').last()).toHaveAttribute('data-status', 'return_requested');
  // What to do with the parcel now: the steps, the order number to write on it, the address.
  const how = page.getByTestId('return-instructions');
  await expect(how.getByRole('heading')).toHaveText(t['aftersale.instructions.title']);
  await expect(how.locator('li')).toHaveCount(4);
  await expect(how).toContainText(String(id));
  await expect(how.getByTestId('return-address')).toContainText('93200 Saint-Denis');

  // The same line again: its return is open.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('return-quantity').first().fill('1');
  await page.getByTestId('return-reason').selectOption('changed_mind');
  await page.getByTestId('return-send').click();
  await expect(page.getByTestId('return-error')).toHaveAttribute('data-code', 'return_already_requested');
  await expectNoViolations(page);
});

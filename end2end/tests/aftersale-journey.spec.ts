import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { PASSWORD, addAddress, buy, firstSale, memberEmail, register, signedIn } from './member-steps';
import { chooseSubject } from './help-steps';

// After the sale, end to end, desktop and phone, each project its own new
// member on its own site (1 French, 2 German), as one chain: buy on the website with the
// demo card; the operator's fulfilment command ships then delivers it; the detail shows the
// timeline and the tracking number; the invoice downloads as a PDF; a return of one line;
// the header bell counts the unread notifications and the message centre lists them
// (opening reads nothing until "mark as read"); a question the help articles answer, rated
// badly, opens a ticket; the operator's support reply shows as one more unread message in
// the header and in the thread. Then a product of a marketplace sale (its order's detail
// offers "contact the seller"), and a rose deal: bought, its voucher printed, a refund
// refused for a wrong IBAN then done, the result with its amount.

const LANG: Record<number, string> = { 1: 'fr', 2: 'de' };
const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${file}`, import.meta.url), 'utf8'));
const texts = (site: number): Record<string, string> => ({
  ...read(`${LANG[site]}.json`),
  ...read(`orders/${LANG[site]}.json`),
  ...read(`aftersale/${LANG[site]}.json`),
  ...read(`help/${LANG[site]}.json`),
  ...read(`rosedeals/${LANG[site]}.json`),
});
const QUESTION: Record<number, string> = {
  1: 'Comment télécharger la facture de ma commande ?',
  2: 'Wo kann ich meine Rechnung herunterladen?',
};

const SITES = [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76];
const dealSale = (site: number) => (SITES.indexOf(site) + 1) * 1000 + 900;

/// The operator's command line (`server orders ...`, `server support ...`) on the shop's data.
function command(args: string[]): string {
  const bin = process.env.ROSACE_E2E_BIN;
  expect(bin, 'ROSACE_E2E_BIN (end2end/run.sh sets it)').toBeTruthy();
  return execFileSync(bin!, args, {
    env: { ...process.env, ROSACE_DATA_DIR: process.env.ROSACE_E2E_DATA ?? '', RUST_LOG: 'warn' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
const simulator = (args: string[]) => command(['orders', ...args]);

/// The header bell's unread count (no count shown: none).
async function unread(page: Page): Promise<number> {
  const count = page.getByTestId('header-bell').getByTestId('bell-count');
  return (await count.count()) === 0 ? 0 : Number(await count.textContent());
}

test('buy, shipped and delivered, invoice, return, bell and message centre, help ticket and support reply, marketplace seller, rose deal refund', async ({ page }, info) => {
  test.setTimeout(180_000);
  const site = info.project.name === 'desktop' ? 1 : 2;
  const t = texts(site);
  const email = memberEmail(site, info.project.name, 'journey14');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/');
  await addAddress(page, site, 'Parcours');

  // Bought on the website.
  const id = await buy(page, firstSale(site), 3);
  await expect(page.locator(`[data-testid="order"][data-order-id="${id}"]`)).toHaveAttribute('data-status', 'validated');

  // The operator ships it, then it is delivered.
  expect(simulator(['advance', id])).toContain(`order ${id}: validated -> in_preparation`);
  const shipped = simulator(['advance', id]);
  expect(shipped).toMatch(new RegExp(`order ${id}: in_preparation -> shipped \\(tracking number RS\\d{9}FR\\)`));
  const tracking = shipped.match(/RS\d{9}FR/)![0];
  expect(simulator(['advance', id])).toContain(`order ${id}: shipped -> received`);

  // The detail: timeline and tracking number.
  await page.goto('/my-orders');
  await page.locator(`[data-testid="order"][data-order-id="${id}"]`).getByTestId('order-link').click();
  await expect(page).toHaveURL(new RegExp(`/my-orders/fs/${id}$`));
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'received');
  await expect(page.getByTestId('order-status')).toHaveText(t['orders.status.received']);
  await expect(page.getByTestId('order-tracking')).toHaveText(tracking);
  expect(
    await page.getByTestId('order-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))),
  ).toEqual(['validated', 'in_preparation', 'shipped', 'received']);

  // The invoice: a PDF.
  const href = (await page.getByTestId('invoice-download').getAttribute('href'))!;
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 4).toString()).toBe('%PDF');

  // A return of one line.
  const form = page.getByTestId('returns-form');
  await form.getByTestId('return-reason').selectOption('size');
  await form.getByTestId('return-quantity').first().fill('1');
  await form.getByTestId('return-sub-reason').selectOption('too_big');
  await form.getByTestId('return-send').click();
  await expect(page.getByTestId('aftersale-notice')).toHaveText(t['aftersale.returns.success']);
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'return_requested');

  // The bell counts the order's news; the message centre lists them, unread.
  const bell = page.getByTestId('header-bell');
  const count = Number(await bell.getByTestId('bell-count').textContent());
  expect(count).toBeGreaterThan(0);
  await bell.click();
  await expect(page).toHaveURL(/my-notifications/);
  const news = page.locator(`[data-testid="notification"][data-kind="order"][data-read="false"]`);
  await expect(news.first()).toContainText(id);
  await expect(page.getByTestId('centre-unread')).toHaveAttribute('data-count', String(count));
  await expectNoViolations(page);
  // Opening one reads nothing; "mark as read" does, and the bell counts one less.
  await news.first().getByRole('link').click();
  await expect(page.getByTestId('notification-opened')).toBeVisible();
  await expect(page.getByTestId('centre-unread')).toHaveAttribute('data-count', String(count));
  await expectNoViolations(page);
  await page.getByTestId('mark-read').click();
  await expect(page.getByTestId('help-notice')).toHaveText(t['help.notice.read']);
  await expect(page.getByTestId('centre-unread')).toHaveAttribute('data-count', String(count - 1));
  if (count > 1) {
    await expect(page.getByTestId('header-bell').getByTestId('bell-count')).toHaveText(String(count - 1));
  } else {
    await expect(page.getByTestId('header-bell').getByTestId('bell-count')).toHaveCount(0);
  }

  // A question to the help centre; not helpful: a ticket, listed in the message centre.
  await page.goto('/helpform');
  const help = page.getByTestId('help-form');
  await chooseSubject(help, 'payment', 'invoice');
  await help.getByTestId('help-body').fill(QUESTION[site]);
  await help.getByTestId('help-send').click();
  const answer = page.getByTestId('help-answer');
  await expect(answer.getByTestId('help-answer-article')).toHaveAttribute('data-article', 'invoices');
  await answer.getByTestId('help-rate-bad').click();
  await expect(page.getByTestId('help-sent')).toContainText(t['help.notice.sent']);
  await page.goto('/my-notifications');
  const ticket = page.getByTestId('ticket').first();
  await expect(ticket).toContainText(t['help.status.open']);
  const ticketId = (await ticket.getAttribute('data-ticket'))!;

  // Support answers from the operator's command: the header shows one more unread message,
  // and the thread shows the reply.
  const before = await unread(page);
  const reply = `Support ${site}: la facture est sur la commande ${id}.`;
  expect(command(['support', 'reply', ticketId, reply])).toContain(`ticket ${ticketId}: answered`);
  await page.goto('/');
  await expect(page.getByTestId('header-bell').getByTestId('bell-count')).toHaveText(String(before + 1));
  await expect(page.getByTestId('header-bell')).toHaveAttribute(
    'aria-label',
    t['help.bell.unread'].replace('{count}', String(before + 1)),
  );
  await page.getByTestId('header-bell').click();
  const answered = page.locator('[data-testid="notification"][data-kind="ticket"][data-read="false"]').first();
  await answered.getByRole('link').click();
  await expect(page.getByTestId('thread').locator('[data-author="support"]')).toContainText(reply);
  await expect(page.getByTestId('thread').getByTestId('thread-status')).toHaveText(t['help.status.answered']);
  await expectNoViolations(page);

  // A marketplace sale's product: its order's detail offers to contact the seller.
  const marketplace = await buy(page, firstSale(site) + 3, 2);
  expect(Number(marketplace)).toBeGreaterThan(Number(id));
  await page.locator(`[data-testid="order"][data-order-id="${marketplace}"]`).getByTestId('order-link').click();
  const seller = page.getByTestId('marketplace-help');
  await expect(seller).toBeVisible();
  await expect(seller.getByTestId('marketplace-contact')).toBeVisible();
  await expectNoViolations(page);
  // Its invoice on request: the number given, shown with the download.
  await seller.getByTestId('invoice-request').click();
  await expect(seller.getByTestId('invoice-number')).toHaveText(/RS-\d{4}-\d{6}/);
  await expect(seller.getByTestId('invoice-number')).toBeFocused();
  await expect(seller.getByTestId('invoice-download')).toHaveAttribute('href', `/api/postsale/v1/orders/${marketplace}/invoice`);

  // A rose deal bought through the cart, its voucher printed.
  await page.goto('/rosedeals');
  const deal = page.locator(`[data-testid="deal"][data-item-id="${dealSale(site) * 100 + 2}"]`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await deal.getByTestId('add-to-cart').click();
  await expect(deal.getByTestId('added-to-cart')).toBeVisible();
  await page.goto('/cart');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByTestId('checkout').click();
  await page.getByTestId('card-number').fill('4242 4242 4242 4242');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('order-confirmed')).toBeVisible();
  await page.goto('/rosedeals/ongoing');
  const dealOrder = page.getByTestId('deal-order').first();
  const code = (await dealOrder.getByTestId('deal-voucher-code').first().textContent())!.trim();
  expect(code).toMatch(/^RD-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const print = await page.context().newPage();
  await print.goto((await dealOrder.getByTestId('deal-print').getAttribute('href'))!);
  await expect(print.getByTestId('print-vouchers')).toContainText(code);
  await expect(print.locator('#print')).toBeVisible();
  await print.close();

  // Its refund: a wrong IBAN gets the form's message, a right one the result with the amount.
  await dealOrder.getByTestId('deal-refund-link').click();
  await expect(page).toHaveURL(/\/rosedeals\/refund\?basketId=\d+$/);
  const refund = page.getByTestId('refund-form');
  for (const [field, value] of [['firstName', 'Anne'], ['lastName', 'Parcours'], ['city', 'Lyon'], ['country', 'FR']]) {
    await refund.getByTestId(`refund-${field}`).fill(value);
  }
  await refund.getByTestId('refund-iban').fill('FR15 2004 1010 0505 0001 3M02 606');
  await refund.getByTestId('refund-submit').click();
  await expect(refund.getByTestId('refund-iban-error')).toHaveText(t['rosedeals.errors.invalid_iban']);
  await refund.getByTestId('refund-iban').fill('FR14 2004 1010 0505 0001 3M02 606');
  await refund.getByTestId('reauth-refund-reauth').fill(PASSWORD);
  await refund.getByTestId('refund-submit').click();
  await expect(page).toHaveURL(/\/rosedeals\/refund-result\?basketId=\d+(&site=\d+)?$/);
  await expect(page.getByTestId('refund-amount')).toContainText('€');
  await expectNoViolations(page);
});

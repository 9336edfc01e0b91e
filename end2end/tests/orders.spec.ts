import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInAsDemo } from './session';
import { expectNoViolations } from './a11y';
import { buy, firstSale } from './member-steps';

// The member's orders after the sale as the first demo member on a site no
// other spec shops on: two orders paged one a page, then the fulfilment simulator run as
// the operator runs it (`server orders advance`, end2end/run.sh exposes the binary and the
// data directory) moves the newest to shipped, with its tracking number, then received,
// each step in the detail's timeline; the older one is cancelled. Axe on the list and the
// detail.

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${file}`, import.meta.url), 'utf8'));
// Site 66 speaks Spanish, site 69 Italian.
const LANG: Record<number, string> = { 66: 'es', 69: 'it' };
const texts = (site: number): Record<string, string> => ({
  ...read(`${LANG[site]}.json`),
  ...read(`orders/${LANG[site]}.json`),
});

/// `server orders <args>` on the shop's database: what it printed (throws on a non-zero exit,
/// with its stderr in the message).
function simulator(args: string[]): string {
  const bin = process.env.ROSACE_E2E_BIN;
  expect(bin, 'ROSACE_E2E_BIN (end2end/run.sh sets it)').toBeTruthy();
  return execFileSync(bin!, ['orders', ...args], {
    env: { ...process.env, ROSACE_DATA_DIR: process.env.ROSACE_E2E_DATA ?? '', RUST_LOG: 'warn' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const timeline = (page: Page) =>
  page.getByTestId('order-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));

test('orders page one a page; the simulator ships the newest with a tracking number, then it is received', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 66 : 69;
  const t = texts(site);
  await signInAsDemo(page, site);
  await buy(page, firstSale(site), 4);
  await buy(page, firstSale(site), 6);

  // One a page: the newest first, the pager's links move to the older one.
  await page.goto('/my-orders?size=1');
  const order = page.getByTestId('order');
  await expect(order).toHaveCount(1);
  const newest = (await order.getAttribute('data-order-id'))!;
  await expect(order).toHaveAttribute('data-status', 'validated');
  await expect(order.getByTestId('order-status')).toHaveText(t['orders.status.validated']);
  await expect(page.getByTestId('pager-current')).toHaveText('1');
  await expectNoViolations(page);
  await page.getByTestId('pager-next').click();
  await expect(page).toHaveURL(/\/my-orders\?page=2&size=1$/);
  await expect(page.getByTestId('pager-current')).toHaveText('2');
  const older = (await page.getByTestId('order').getAttribute('data-order-id'))!;
  expect(Number(older)).toBeLessThan(Number(newest));
  await expect(page.getByTestId('pager-prev')).toHaveAttribute('href', '/my-orders?page=1&size=1');

  // The warehouse prepares and ships it: a tracking number.
  expect(simulator(['advance', newest])).toContain(`order ${newest}: validated -> in_preparation`);
  const shipped = simulator(['advance', newest]);
  expect(shipped).toMatch(new RegExp(`order ${newest}: in_preparation -> shipped \\(tracking number RS\\d{9}FR\\)`));
  const tracking = shipped.match(/RS\d{9}FR/)![0];

  await page.goto('/my-orders');
  await page.locator(`[data-testid="order"][data-order-id="${newest}"]`).getByTestId('order-link').click();
  await expect(page).toHaveURL(new RegExp(`/my-orders/fs/${newest}$`));
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'shipped');
  await expect(page.getByTestId('order-status')).toHaveText(t['orders.status.shipped']);
  await expect(page.getByTestId('order-tracking')).toHaveText(tracking);
  expect(await timeline(page)).toEqual(['validated', 'in_preparation', 'shipped']);
  await expect(page.getByTestId('order-event').last()).toContainText(t['orders.status.shipped']);
  await expect(page.getByTestId('order-event').last().locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
  await expect(page.getByTestId('order-help')).toHaveAttribute('href', `/postsales/${newest}/helpform`);
  await expect(page.getByTestId('order-payment-reference')).toContainText('•');
  await expectNoViolations(page);

  // A shipped order is not cancelled; it is received.
  expect(() => simulator(['advance', newest, 'cancelled'])).toThrow(/refused: order \d+: an order shipped cannot become cancelled/);
  expect(simulator(['advance', newest])).toContain('shipped -> received');
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'received');
  expect(await timeline(page)).toEqual(['validated', 'in_preparation', 'shipped', 'received']);
  await expect(page.getByTestId('order-event').last()).toContainText(t['orders.status.received']);
  await expect(page.getByTestId('order-tracking')).toHaveText(tracking);

  // The list says so too; the older order has not moved.
  await page.goto('/my-orders');
  await expect(page.locator(`[data-testid="order"][data-order-id="${newest}"]`)).toHaveAttribute('data-status', 'received');
  await expect(page.locator(`[data-testid="order"][data-order-id="${older}"]`)).toHaveAttribute('data-status', 'validated');
  await expectNoViolations(page);

  // The older one is cancelled before it ships: its label in the list, its timeline.
  expect(simulator(['advance', older, 'cancelled'])).toContain(`order ${older}: validated -> cancelled`);
  await page.reload();
  const cancelled = page.locator(`[data-testid="order"][data-order-id="${older}"]`);
  await expect(cancelled).toHaveAttribute('data-status', 'cancelled');
  await expect(cancelled.getByTestId('order-status')).toHaveText(t['orders.status.cancelled']);
  await cancelled.getByTestId('order-link').click();
  await expect(page).toHaveURL(new RegExp(`/my-orders/fs/${older}$`));
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'cancelled');
  expect(await timeline(page)).toEqual(['validated', 'cancelled']);
});

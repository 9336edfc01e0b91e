import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { signIn, signOut } from './backoffice-steps';
import { askAndRateBadly } from './help-steps';
import { lastMail, memberEmail, otherBrowser, register, signedIn } from './member-steps';

// Customer care and moderation as their teams use them, desktop and phone:
// - a notice of illegal content sent from a product page is acknowledged by email; the
//   moderator finds it in the queue, removes the product with a statement of reasons; the
//   product is gone from its page (410), its sale's catalog and search at once, and the
//   statement is in the outbox in the notifier's language;
// - a member's question becomes a ticket; customer care answers it from the desk; the
//   member reads the answer in the message centre, then downloads all their data.
// axe on every new page kind on the way (queue, notice, transparency, desk, ticket).

const LANG: Record<number, string> = { 70: 'fr', 71: 'nl' };
const mailTexts = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/moderation/${LANG[site]}.json`, import.meta.url), 'utf8'));

function local(d: Date): string {
  return d.toISOString().slice(0, 16);
}

test('a notice is acknowledged, the moderator removes the product, it is gone at once', async ({ page }, info) => {
  test.setTimeout(150_000);
  const desktop = info.project.name === 'desktop';
  const [merchandiser, site] = desktop ? ['admin@rosace.test', 70] : ['merch@rosace.test', 71];
  const stamp = Date.now().toString(36);
  const product = `Sac ${stamp}`;
  const notifier = `legal.${stamp}@example.com`;

  // A live sale with one product, made through the forms.
  await signIn(page, merchandiser);
  await page.getByRole('link', { name: 'New sale' }).click();
  await page.getByLabel('Site').selectOption(String(site));
  await page.getByLabel('Name').fill(`Maroquinerie ${stamp}`);
  await page.getByLabel('Opens (UTC)').fill(local(new Date(Date.now() - 3_600_000)));
  await page.getByLabel('Closes (UTC)').fill(local(new Date(Date.now() + 3 * 86_400_000)));
  await page.getByRole('button', { name: 'Create the sale' }).click();
  await expect(page.getByRole('status')).toContainText('Sale created.');
  const saleId = Number(/\/backoffice\/sales\/(\d+)/.exec(page.url())![1]);
  await page.getByRole('link', { name: 'Products and stock' }).first().click();
  await page.getByLabel('Product', { exact: true }).fill(product);
  await page.getByLabel(/^Price/).fill('49.90');
  await page.getByLabel(/^Retail price/).fill('99');
  await page.getByRole('button', { name: 'Add the product' }).click();
  await expect(page.getByRole('status')).toContainText('Product added.');
  await page.getByLabel(`${product} · Option`).fill('TU');
  await page.getByLabel(`${product} · Stock`).fill('5');
  await page.getByLabel(`${product} · Option`).press('Enter');
  await expect(page.getByRole('status')).toContainText('Option added.');
  const productId = await page.locator('[data-product]', { hasText: product }).getAttribute('data-product');
  await signOut(page);

  // The notice, from the product page's form; acknowledged by email in the site's language.
  const productPage = `/seo-product/sac/${saleId}/sac/${productId}?site=${site}`;
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.9.${desktop ? 1 : 2}.${Date.now() % 250}` });
  await page.goto(productPage);
  await page.getByTestId('dsa-open').click();
  const widget = page.getByTestId('dsa-widget');
  await widget.locator('input[name="selectedMadeAs"][value="1"]').check();
  await widget.locator('input[name="selectedConcerns"][value="HATRED"]').check();
  await widget.locator('textarea[name="description"]').fill('This bag shows a hateful slogan on its front.');
  await widget.locator('input[name="lastName"]').fill('Durand');
  await widget.locator('input[name="email"]').fill(notifier);
  await widget.locator('input[name="isNotificationSubmitChecked"]').check();
  await widget.locator('button[type="submit"]').click();
  await expect(widget.getByRole('status')).toBeVisible();
  const m = mailTexts(site);
  const ack = lastMail(notifier, m['moderation.ack.subject'].split('{id}')[0]);
  expect(ack).toContain(product);
  const search = `/api/catalog/v8/search/items?q=${encodeURIComponent(product)}&siteId=${site}&limit=96`;
  const catalog = `/api/catalog/v2/sale/${saleId}/catalogContent/0?limit=96&site=${site}`;
  const ids = async (path: string, key: string) =>
    ((await (await page.request.get(path)).json())[key] ?? []).map((p: { id: number }) => String(p.id));
  expect(await ids(catalog, 'items')).toContain(productId);
  expect(await ids(search, 'products')).toContain(productId);

  // The moderator's queue, the notice, the decision.
  await signIn(page, 'moderator@rosace.test');
  await page.getByRole('link', { name: 'Notices', exact: true }).click();
  await expectNoViolations(page, undefined, { islands: false });
  await page.locator('#notices tbody tr', { hasText: product }).getByRole('link').first().click();
  await expect(page.locator('#notice-facts')).toContainText('This bag shows a hateful slogan');
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByRole('button', { name: 'Decide and send the statement of reasons' }).click();
  await expect(page.getByText('Choose a decision.')).toBeVisible();
  await page.getByLabel('Remove the product').check();
  await page.getByLabel('Illegal under the applicable law').check();
  await page.getByLabel('Facts and circumstances relied on').fill('The slogan on the bag incites hatred.');
  await page.getByLabel(/^The law or the term/).fill('Art. 24 of the law of 29 July 1881.');
  await page.getByRole('button', { name: 'Decide and send the statement of reasons' }).click();
  // The enhanced form also announces it in the live region: the page's own notice.
  await expect(page.locator('.bo-notice')).toContainText('Decided.');
  await expect(page.locator('#notice-decision')).toHaveAttribute('data-decision', 'remove');
  await expectNoViolations(page, undefined, { islands: false });

  // Gone at once: its page, its sale's catalog, search. The statement is in the outbox.
  expect((await page.request.get(productPage)).status()).toBe(410);
  expect(await ids(catalog, 'items')).not.toContain(productId);
  expect(await ids(search, 'products')).not.toContain(productId);
  const statement = lastMail(notifier, m['moderation.decision.subject'].split('{id}')[0]);
  expect(statement).toContain(m['moderation.decision.remove']);
  expect(statement).toContain('Art. 24 of the law of 29 July 1881.');
  expect(statement).toContain(m['moderation.redress']);

  await page.goto('/backoffice/moderation');
  await page.getByRole('link', { name: 'Transparency report' }).click();
  await expect(page.locator('#transparency tr[data-reason="HATRED"]')).toBeVisible();
  await expectNoViolations(page, undefined, { islands: false });
});

test('a member writes, customer care answers from the desk, the member reads it', async ({ page, browser, baseURL }, info) => {
  test.setTimeout(150_000);
  const site = info.project.name === 'desktop' ? 1 : 2;
  const email = memberEmail(site, info.project.name, 'desk');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/helpform');
  await askAndRateBadly(page, site);
  await page.goto('/gr/my-notifications/');
  const id = (await page.getByTestId('ticket').first().getAttribute('data-ticket'))!;

  const desk = await otherBrowser(browser, baseURL);
  const op = desk.page;
  await signIn(op, 'care@rosace.test');
  await op.getByRole('link', { name: 'Support', exact: true }).click();
  await expectNoViolations(op, undefined, { islands: false });
  await op.goto(`/backoffice/support?site=${site}&reason=payment`);
  await op.locator(`#tickets tr[data-ticket="${id}"]`).getByRole('link').click();
  await expectNoViolations(op, undefined, { islands: false });
  const answer = `Desk ${site}: your invoice is in My orders, under the order.`;
  await op.getByLabel(/^Your answer/).fill(answer);
  await op.getByRole('button', { name: 'Send the answer' }).click();
  await expect(op.locator('.bo-notice')).toContainText('Answer sent.');
  await expect(op.locator('#thread [data-author="support"]')).toContainText(answer);
  await expectNoViolations(op, undefined, { islands: false });
  await desk.context.close();

  await page.goto('/gr/my-notifications/');
  const notification = page.getByTestId('notification').first();
  await expect(notification).toHaveAttribute('data-kind', 'ticket');
  await notification.getByRole('link').click();
  await expect(page.getByTestId('thread').locator('[data-author="support"]')).toContainText(answer);
  await expectNoViolations(page);

  // The member downloads all their data (GDPR Art. 15 and 20): the ticket is in it.
  await page.goto('/myaccount?tab=delete');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-data').click()]);
  expect(download.suggestedFilename()).toBe('my-data.json');
  const data = JSON.parse(readFileSync(await download.path(), 'utf8'));
  expect(data.tables.members[0].email).toBe(email);
  expect(data.tables.help_tickets.map((k: { id: number }) => String(k.id))).toContain(id);
  expect(JSON.stringify(data)).not.toContain('$argon2');
});

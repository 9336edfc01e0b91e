import { execFileSync } from 'node:child_process';
import { test, expect } from './fixtures';
import { expectNoViolations } from './a11y';
import { countLoads, memberEmail, register, signedIn } from './member-steps';
import { QUESTION, askAndRateBadly, chooseSubject, help } from './help-steps';

// The help centre on two sites in two languages, desktop and phone: a question
// the help articles answer, rated badly, becomes a ticket in the message centre; support
// answers with the real `server support reply` command; the header bell counts the unread
// answer; opening it reads nothing, "mark as read" (a POST form) does. Axe on every page
// on the way, and on the chat, contact selector and post-sales error pages. Site 73
// (Luxembourg) takes no tickets: a question no article answers, and one answered but
// rated badly, show the extra text (the other ways to reach support) and make no ticket.

function supportReply(ticket: string, text: string): string {
  const bin = process.env.ROSACE_E2E_BIN;
  expect(bin, 'ROSACE_E2E_BIN (end2end/run.sh sets it)').toBeTruthy();
  return execFileSync(bin!, ['support', 'reply', ticket, text], {
    env: { ...process.env, ROSACE_DATA_DIR: process.env.ROSACE_E2E_DATA ?? '', RUST_LOG: 'warn' },
    encoding: 'utf8',
  });
}

for (const site of [1, 2]) {
  test(`a question answered, rated badly, becomes a ticket support answers; the bell counts it (site ${site})`, async ({ page }, info) => {
    const t = help(site);
    const email = memberEmail(site, info.project.name, 'help');
    expect(await register(page, site, email)).toBe(201);
    await signedIn(page, site, email, '/helpform');
    await askAndRateBadly(page, site);

    // The ticket is in the message centre, open.
    await page.goto('/gr/my-notifications/');
    const ticket = page.getByTestId('ticket').first();
    await expect(ticket).toContainText(t['help.status.open']);
    await expectNoViolations(page);
    const id = (await ticket.getAttribute('data-ticket'))!;

    // Support answers from the command line.
    const out = supportReply(id, `Support ${site}: your invoice is attached to your order.`);
    expect(out).toContain(`ticket ${id}: answered`);

    // The bell counts it, with an accessible label.
    await page.goto('/');
    const bell = page.getByTestId('header-bell');
    await expect(bell).toHaveAttribute('aria-label', t['help.bell.unread'].replace('{count}', '1'));
    await expect(bell.getByTestId('bell-count')).toHaveText('1');
    await bell.click();
    await expect(page).toHaveURL(/my-notifications/);
    const notification = page.getByTestId('notification').first();
    await expect(notification).toHaveAttribute('data-kind', 'ticket');
    await expect(notification).toHaveAttribute('data-read', 'false');
    await expectNoViolations(page);
    await notification.getByRole('link').click();
    const thread = page.getByTestId('thread');
    await expect(thread.locator('[data-author="support"]')).toContainText(`Support ${site}: your invoice is attached to your order.`);
    await expect(thread.getByTestId('thread-status')).toHaveText(t['help.status.answered']);
    await expectNoViolations(page);
    // Opening it (a GET) read nothing: the bell still counts it until "mark as read" (POST).
    await expect(page.getByTestId('header-bell').getByTestId('bell-count')).toHaveText('1');
    // Sent in place by the enhancement script: no page load.
    const loads = countLoads(page);
    await page.getByTestId('mark-read').click();
    await expect(page.getByTestId('help-notice')).toContainText(t['help.notice.read']);
    await expect(page.getByTestId('mark-read')).toHaveCount(0);
    // The header's bell, outside the swapped region, is brought up to date too.
    await expect(page.getByTestId('header-bell').getByTestId('bell-count')).toHaveCount(0);
    expect(loads(), 'no page load').toBe(0);
    // Read now: the bell has nothing to count, on the next page too.
    await page.goto('/');
    await expect(page.getByTestId('header-bell').getByTestId('bell-count')).toHaveCount(0);
  });
}

test('the chat, contact selector and post-sales error pages', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 2;
  const t = help(site);
  const email = memberEmail(site, info.project.name, 'helppages');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/postsales/contactselector');
  await page.goto('/postsales/contactselector');
  const chat = page.getByTestId('choose-chat');
  await expect(chat).toHaveAttribute('target', '_blank');
  await expect(chat).toHaveAttribute('rel', 'noopener');
  await expect(chat).toContainText(t['help.new_window']);
  await expectNoViolations(page);
  await page.goto('/chat?reason=order');
  await page.waitForLoadState('load');
  // The enhancement script comes after the page (the shell module imports it): a send
  // before it is a plain form post, which is right for the member but not what this checks.
  await expect(page.locator('html')).toHaveAttribute('data-enhance', 'on');
  const loads = countLoads(page);
  await page.getByTestId('chat-body').fill('Bonjour / Hallo');
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('help-notice')).toContainText(t['help.notice.chat_sent']);
  await expect(page.getByTestId('thread').getByTestId('message')).toHaveCount(1);
  await expect(page.getByTestId('chat-body')).toHaveValue('');
  // A second message continues the same thread, in place too.
  await page.getByTestId('chat-body').fill('Zweite Nachricht');
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('thread').getByTestId('message')).toHaveCount(2);
  expect(loads(), 'both sent without a page load').toBe(0);
  await expectNoViolations(page);
  await expectNoViolations(page, '/ps/errors');
  await expect(page.getByTestId('ps-error')).toContainText(t['help.ps_error.text']);
});

test('site 73 takes no tickets: no answer, or an answer rated badly, shows the extra text', async ({ page }, info) => {
  const site = 73;
  const t = help(site);
  const email = memberEmail(site, info.project.name, 'helpextra');
  expect(await register(page, site, email)).toBe(201);
  await signedIn(page, site, email, '/helpform');
  await page.goto('/helpform');
  const form = page.getByTestId('help-form');
  const extra = page.getByTestId('help-extra');
  await expect(form).toHaveAttribute('data-tickets', 'false');
  await expect(extra).toBeHidden();

  // A message no article answers: the extra text, with the site's phone; loading is over.
  await form.getByTestId('help-reason').selectOption('other');
  // A new reason asks the server for the form again (it clears the message): typing
  // starts once that answer is in, as a person's would.
  await expect(form).not.toHaveAttribute('aria-busy', 'true');
  await form.getByTestId('help-body').fill('xqzv blorp wuggle frrrt zzkk');
  await form.getByTestId('help-send').click();
  await expect(extra).toBeVisible();
  await expect(extra).toContainText(t['help.extra.title']);
  await expect(extra.locator('[data-platform="Phone"] a')).toHaveAttribute('href', 'tel:+35220000000');
  await expect(form).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('help-sent')).toHaveCount(0);
  await expectNoViolations(page);

  // A question the articles answer: shown, loading over once it is displayed; rated
  // badly, it becomes no ticket here but the extra text.
  await page.goto('/helpform');
  await expect(extra).toBeHidden();
  await chooseSubject(form, 'payment', 'invoice');
  await form.getByTestId('help-body').fill(QUESTION[1]);
  await form.getByTestId('help-send').click();
  const answer = page.getByTestId('help-answer');
  await expect(answer.getByTestId('help-answer-article')).toHaveAttribute('data-article', 'invoices');
  await expect(form).toHaveAttribute('aria-busy', 'false');
  await expect(form.getByTestId('help-send')).toBeEnabled();
  await answer.getByTestId('help-rate-bad').click();
  await expect(extra).toBeVisible();
  await expect(answer).toHaveCount(0);
  await expect(page.getByTestId('help-sent')).toHaveCount(0);
  await expectNoViolations(page);

  // The message centre has no ticket.
  await page.goto('/gr/my-notifications/');
  await expect(page.getByTestId('tickets')).toBeAttached();
  await expect(page.getByTestId('ticket')).toHaveCount(0);
});

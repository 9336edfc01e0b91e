import { readFileSync } from 'node:fs';
import { type Locator, type Page } from '@playwright/test';
import { expect } from './fixtures';
import { expectNoViolations } from './a11y';

// A member's question to the help centre that becomes a ticket: shared by the help spec
// and the support desk's journey.

const LANG: Record<number, string> = { 1: 'fr', 2: 'de', 73: 'fr' };
export const help = (site: number): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/help/${LANG[site]}.json`, import.meta.url), 'utf8'));

export const QUESTION: Record<number, string> = {
  1: 'Comment télécharger la facture de ma commande ?',
  2: 'Wo kann ich meine Rechnung herunterladen?',
};

/// Chooses the help form's reason and sub-reason. Each choice asks the server for the form
/// again (its rule clears the message), and the answer replaces the form: the message is
/// typed once that answer is in, as a person's would (typed into the form being replaced,
/// it went with it, and the question was sent empty).
export async function chooseSubject(form: Locator, reason: string, sub: string) {
  await form.getByTestId('help-reason').selectOption(reason);
  await expect(form).not.toHaveAttribute('aria-busy', 'true');
  await form.getByTestId('help-sub').selectOption(sub);
  await expect(form).not.toHaveAttribute('aria-busy', 'true');
  await expect(form.getByTestId('help-sub')).toHaveValue(sub);
}

export async function askAndRateBadly(page: Page, site: number) {
  const t = help(site);
  await page.goto('/helpform');
  await expectNoViolations(page);
  const form = page.getByTestId('help-form');
  await chooseSubject(form, 'payment', 'invoice');
  await form.getByTestId('help-body').fill(QUESTION[site]);
  await form.getByTestId('help-send').click();
  const answer = page.getByTestId('help-answer');
  await expect(answer).toBeVisible();
  await expect(answer.getByTestId('help-answer-article')).toHaveAttribute('data-article', 'invoices');
  await expect(answer).toContainText(t['help.answer.question']);
  await expectNoViolations(page);
  await answer.getByTestId('help-rate-bad').click();
  await expect(page.getByTestId('help-sent')).toContainText(t['help.notice.sent']);
}


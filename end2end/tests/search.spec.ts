import { test, expect } from './fixtures';
import { signInAsDemo } from './session';
import { expectNoViolations } from './a11y';

/// A product of the first sale whose first word is long enough for a typo, and that word
/// with two letters swapped.
async function productWithTypo(request: import('@playwright/test').APIRequestContext) {
  const res = await request.get('/api/catalog/v2/sale/1001/catalogContent/0?limit=96&site=1');
  expect(res.ok()).toBeTruthy();
  const { items } = await res.json();
  const item = items.find((i: { name: string }) => {
    const word = i.name.split(' ')[0];
    return word.length >= 5 && /^[A-Za-z]+$/.test(word) && word[1] !== word[2];
  });
  const word: string = item.name.split(' ')[0].toLowerCase();
  const typo = word[0] + word[2] + word[1] + word.slice(3);
  return { id: item.id as number, typo: `${typo} ${item.brand}` };
}

test('search with a typo finds the product, then a recent query is deleted', async ({ page, request }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { id, typo } = await productWithTypo(request);

  await signInAsDemo(page, 1, '/find');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const input = page.getByTestId('search-input');
  await input.click();
  await input.pressSequentially(typo, { delay: 30 });
  // Suggestions while typing: a listbox with options, "search for «q»" last.
  const suggestions = page.getByTestId('search-suggestions');
  await expect(suggestions).toBeVisible();
  await expect(suggestions.locator('[role="option"][data-kind="generic"]')).toBeVisible();
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  // Keyboard: the arrows move through the options, Escape closes the list.
  await input.press('ArrowDown');
  await expect(input).toHaveAttribute('aria-activedescendant', 'search-option-0');
  await expect(suggestions.locator('#search-option-0')).toHaveAttribute('aria-selected', 'true');
  await input.press('Escape');
  await expect(suggestions).toBeHidden();
  // (Escape also empties a search field in Chromium.) Submit the typo.
  await input.fill(typo);
  await input.press('Enter');

  await expect(page).toHaveURL(/\/find\?q=/);
  const results = page.getByTestId('search-results');
  await expect(results.locator(`[data-item-id="${id}"]`)).toBeVisible();
  await expect(page.getByTestId('search-count')).toBeVisible();

  // The query is now a recent query under the empty box; delete it.
  await page.goto('/find');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const entry = page.getByTestId('recent-query').filter({ hasText: typo });
  await expect(entry).toHaveCount(1);
  await entry.getByTestId('recent-delete').click();
  await expect(entry).toHaveCount(0);
  // Gone on the server too.
  await page.reload();
  await expect(page.getByTestId('search-input')).toBeVisible();
  await expect(page.getByTestId('recent-query').filter({ hasText: typo })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the empty search field proposes popular searches and the sales on now', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 4 : 71;
  await signInAsDemo(page, site, '/find');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const input = page.getByTestId('search-input');
  await input.click();
  const suggestions = page.getByTestId('search-suggestions');
  await expect(suggestions).toBeVisible();
  // Spec 000 §3 defaultLists: popular searches (here the brands most on sale), then sales.
  await expect(suggestions.locator('[role="option"][data-kind="popular"]').first()).toBeVisible();
  expect(await suggestions.locator('[role="option"][data-kind="popular"]').count()).toBeLessThanOrEqual(5);
  const sales = suggestions.locator('[role="option"][data-kind="salesbanner"]');
  await expect(sales).toHaveCount(3);
  await expectNoViolations(page);
  // The keyboard reaches them; Enter on the first sale opens its catalog.
  const total = await suggestions.locator('[role="option"]').count();
  for (let i = 0; i < total - 2; i++) await input.press('ArrowDown');
  await expect(suggestions.locator(`#search-option-${total - 3}`)).toHaveAttribute('data-kind', 'salesbanner');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/catalog\/\d+\/0/);
  await expect(page.locator('[data-item-id]').first()).toBeVisible();
});

test('a suggestions call that never answers ends after 10 s with the retry message, and the next one works', async ({ page }, info) => {
  const site = info.project.name === 'desktop' ? 1 : 70;
  await signInAsDemo(page, site, '/find');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // The call for "rob" hangs (the server never answers); the others go through.
  let hung = 0;
  await page.route('**/api/catalog/v1/search/suggestions**', async (route) => {
    if (new URL(route.request().url()).searchParams.get('query') === 'rob') {
      hung++;
      return; // neither fulfilled nor continued: no answer at all
    }
    await route.continue();
  });
  const input = page.getByTestId('search-input');
  await input.click();
  const started = Date.now();
  await input.pressSequentially('rob', { delay: 30 });
  const suggestions = page.getByTestId('search-suggestions');
  const error = suggestions.locator('.suggestions__status--error');
  await expect(error).toBeVisible({ timeout: 15_000 });
  // Not before the client's timeout (10 s, spec 000 §7).
  expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
  // The next keystroke asks again and gets an answer.
  await input.pressSequentially('e', { delay: 30 });
  await expect(suggestions.locator('[role="option"]').first()).toBeVisible();
  await expect(error).toHaveCount(0);
  expect(hung).toBe(1);
});

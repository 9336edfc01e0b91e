import { test, expect } from '@playwright/test';

test('the cookie banner asks once and gates scripts by category', async ({ page, context }) => {
  await page.goto('/?site=1');
  const banner = page.getByTestId('consent-banner');
  await expect(banner).toBeVisible();
  await expect(page.locator('script[data-consent="C0002"]')).toHaveCount(0);

  // Choose performance only.
  await banner.locator('summary').click();
  await banner.locator('input[value="C0002"]').check();
  await banner.getByRole('button', { name: 'Enregistrer mes choix' }).click();
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === 'OptanonConsent');
  expect(cookie?.value).toBe('groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0');
  // The performance script is now on the page and reports once.
  const metrics = page.waitForRequest((r) => r.url().includes('/api/frontend-logger/v1/metrics') && r.method() === 'POST');
  await page.goto('/gr/aboutus');
  await expect(page.locator('script[data-consent="C0002"]')).toHaveCount(1);
  await metrics;
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
});

test('refusing everything keeps only the mandatory category', async ({ page, context }) => {
  await page.goto('/?site=3');
  await page.getByTestId('consent-refuse').click();
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === 'OptanonConsent');
  expect(cookie?.value).toBe('groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0');
  await page.reload();
  await expect(page.getByTestId('consent-banner')).toHaveCount(0);
  await expect(page.locator('script[data-consent="C0002"]')).toHaveCount(0);
});

import { test as base, expect } from '@playwright/test';

// Most tests are about other things than cookie consent: they start as a visitor who has
// already answered the banner (only the mandatory category). consent.spec.ts covers it.
export const test = base.extend({
  context: async ({ context, baseURL }, use) => {
    await context.addCookies([
      { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
    ]);
    await use(context);
  },
});
export { expect };

import { test as base, expect } from '@playwright/test';

// Most tests are about other things than cookie consent: they start as a visitor who has
// already answered the banner (only the mandatory category). consent.spec.ts covers it.
export const test = base.extend({
  context: async ({ context, baseURL }, use) => {
    await context.addCookies([
      { name: 'OptanonConsent', value: 'groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0', url: baseURL! },
    ]);
    // Leptos only warns when a server-rendered island has no browser code under its name
    // (the name hashes the whole item: a server-only attribute once split it in two, and the
    // home toast silently never hydrated). Any test that meets one fails.
    const orphans: string[] = [];
    context.on('console', (message) => {
      if (message.text().includes('Could not find WASM function for the island')) orphans.push(message.text());
    });
    await use(context);
    expect(orphans, 'every server-rendered island has its browser code').toEqual([]);
  },
});
export { expect };

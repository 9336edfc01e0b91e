import { writeFile } from 'node:fs/promises';
import { test as base, expect, type BrowserContext, type Page, type TestInfo } from '@playwright/test';

// What the browser said while a test ran: errors, failed and refused requests. Printed
// with the page's state when the test fails, because a rare failure (a page that never
// hydrated, with an empty main) could not be explained from the test's own message.
// Only the navigations are followed as they happen; the rest is asked of each page when a
// test fails (Playwright keeps a page's last requests, console messages and errors): a
// listener on every request, answer and console message had Playwright send each of them
// to the runner, 30 to 140 requests a page.
function recordNavigations(context: BrowserContext): string[] {
  const trail: string[] = [];
  context.on('page', (p) =>
    p.on('framenavigated', (f) => {
      if (f !== p.mainFrame()) return;
      trail.push(`${new Date().toISOString().slice(11, 23)} at ${f.url().slice(0, 300)}`);
      if (trail.length > 60) trail.shift();
    }),
  );
  return trail;
}

/** What `page` kept of its last requests, console messages and errors, worth reading. */
async function pageTrail(page: Page): Promise<string[]> {
  const lines: string[] = [];
  const cut = (line: string) => line.slice(0, 300);
  for (const m of await page.consoleMessages().catch(() => []))
    if (m.type() === 'error' || m.type() === 'warning') lines.push(cut(`console.${m.type()}: ${m.text()}`));
  for (const e of await page.pageErrors().catch(() => [])) lines.push(cut(`page error: ${e.message}`));
  for (const r of await page.requests().catch(() => [])) {
    const failure = r.failure();
    const response = r.existingResponse();
    if (failure) lines.push(cut(`failed: ${r.method()} ${r.url()} ${failure.errorText}`));
    else if (!response) lines.push(cut(`still waiting: ${r.method()} ${r.url()}`));
    else if (response.status() >= 400) lines.push(cut(`status ${response.status()}: ${r.method()} ${r.url()}`));
  }
  return lines;
}

async function describeFailure(context: BrowserContext, navigations: string[], testInfo: TestInfo): Promise<void> {
  const lines = [`failure context of "${testInfo.title}" (${testInfo.project.name}):`, ...navigations];
  for (const [i, page] of context.pages().entries()) {
    if (page.isClosed()) continue;
    const state = await page
      .evaluate(() => {
        const html = document.documentElement;
        const main = document.querySelector('main');
        return {
          hydrated: html.getAttribute('data-hydrated'),
          navigated: html.getAttribute('data-navigated'),
          islands: document.querySelectorAll('leptos-island').length,
          mainChars: main ? main.innerHTML.length : -1,
          bodyChars: document.body ? document.body.innerHTML.length : -1,
          // Set once the island script's module has loaded (before the WASM starts).
          islandScript: typeof (window as { __hydrateIsland?: unknown }).__hydrateIsland,
          readyState: document.readyState,
          loaded: performance
            .getEntriesByType('resource')
            .map((e) => e.name.replace(location.origin, ''))
            .filter((n) => n.startsWith('/pkg/') || n.startsWith('/js/'))
            .join(' '),
          scripts: [...document.scripts].map((s) => s.src.replace(location.origin, '') || 'inline').join(' '),
        };
      })
      .catch((e: Error) => ({ error: e.message }));
    // Leptos' island script starts the WASM from `requestIdleCallback`: whether an idle
    // callback still runs on this page (an unhydrated page had fetched everything and never
    // started its module).
    const idle = await page
      .evaluate(
        () =>
          new Promise<string>((resolve) => {
            const late = setTimeout(() => resolve('no idle callback within 2 s'), 2000);
            // A time-out of its own: the page's idle deadline (idle-deadline.js) leaves the
            // call to the browser, so this still says whether the browser finds idle time.
            requestIdleCallback(
              () => {
                clearTimeout(late);
                resolve('an idle callback ran');
              },
              { timeout: 60_000 },
            );
          }),
      )
      .catch((e: Error) => e.message);
    lines.push(`page ${i} ${page.url()}: ${JSON.stringify(state)}; ${idle}`);
    lines.push(...(await pageTrail(page)).map((l) => `  ${l}`));
    // Written to the test's output folder (an attachment's body alone is kept only by
    // reporters that write files, and the suite's is the list reporter).
    const file = testInfo.outputPath(`page-${i}.html`);
    await writeFile(file, await page.content().catch(() => ''));
    await testInfo.attach(`page-${i}.html`, { path: file, contentType: 'text/html' });
    lines.push(`  its HTML: ${file}`);
  }
  console.log(lines.join('\n'));
}

// Most tests are about other things than cookie consent: they start as a visitor who has
// already answered the banner (only the mandatory category). consent.spec.ts covers it.
export const test = base.extend({
  context: async ({ context, baseURL }, use, testInfo) => {
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
    const navigations = recordNavigations(context);
    await use(context);
    if (testInfo.status !== testInfo.expectedStatus) await describeFailure(context, navigations, testInfo);
    expect(orphans, 'every server-rendered island has its browser code').toEqual([]);
  },
});
export { expect };

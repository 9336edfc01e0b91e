import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures';
import { axeViolations } from './a11y';

// The page a request gets when the shop is overloaded (load shedding,
// server/src/middleware/shed.rs): in the site's language, styled by its one style block
// (allowed by its hash in the page's policy), with a link that asks for the same address
// again. A second shop is started with no request worked on at once
// (ROSACE_MAX_IN_FLIGHT=0, ROSACE_MAX_CALLS_IN_FLIGHT=0), so everything but /health is shed.

const texts = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../app/locales/${lang}.json`, import.meta.url), 'utf8'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

let shop: ChildProcess | undefined;
let data = '';
let base = '';

test.beforeAll(async () => {
  const bin = process.env.ROSACE_E2E_BIN;
  expect(bin, 'ROSACE_E2E_BIN (end2end/run.sh sets it)').toBeTruthy();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  data = mkdtempSync(join(tmpdir(), 'rosace-busy-'));
  shop = spawn(bin!, [], {
    env: {
      ...process.env,
      LEPTOS_OUTPUT_NAME: 'rosace',
      LEPTOS_SITE_ROOT: fileURLToPath(new URL('../../target/site', import.meta.url)),
      LEPTOS_SITE_PKG_DIR: 'pkg',
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_ENV: 'PROD',
      LEPTOS_HASH_FILES: 'false',
      ROSACE_DATA_DIR: data,
      ROSACE_PUBLIC_ORIGIN: base,
      ROSACE_DEMO_DATA: 'false',
      ROSACE_MAX_IN_FLIGHT: '0',
      ROSACE_MAX_CALLS_IN_FLIGHT: '0',
      RUST_LOG: 'error',
    },
    stdio: 'ignore',
  });
  // Migrations only (no demo data): a few seconds on a busy machine.
  await expect
    .poll(async () => fetch(`${base}/health`).then((r) => r.status).catch(() => 0), { timeout: 60_000 })
    .toBe(200);
});

test.afterAll(async () => {
  shop?.kill('SIGKILL');
  if (data) rmSync(data, { recursive: true, force: true });
});

for (const [site, lang] of [
  [1, 'fr'],
  [2, 'de'],
] as const) {
  test(`an overloaded shop answers a page in the site's language, styled, with a link that asks again (site ${site})`, async ({ page }) => {
    const t = texts(lang);
    const address = `${base}/?site=${site}`;
    const answer = await page.goto(address);
    expect(answer?.status()).toBe(503);
    expect(answer?.headers()['retry-after']).toBe('1');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['errors.busy.title']);
    await expect(page.getByText(t['errors.busy.message'])).toBeVisible();
    const again = page.getByRole('link', { name: t['errors.busy.retry'] });
    await expect(again).toBeVisible();
    // The policy lets the page's own style block apply: the link is a dark button.
    await expect(again).toHaveCSS('background-color', 'rgb(34, 34, 34)');
    expect(await axeViolations(page), `axe on the busy page of site ${site}`).toEqual([]);
    // Asking again asks for the same address, query included.
    const [retried] = await Promise.all([page.waitForResponse((r) => r.request().isNavigationRequest()), again.click()]);
    expect(retried.url()).toBe(address);
    expect(retried.status()).toBe(503);
  });
}

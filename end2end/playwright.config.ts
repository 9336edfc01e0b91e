import { defineConfig, devices } from '@playwright/test';

import { existsSync } from 'node:fs';

// Runs against a shop started by end2end/run.sh, in Debian's Chromium (no browser download):
// its headless shell (package chromium-headless-shell, what Playwright itself runs headless:
// the same engine without the browser's UI layers: the navigation tests used 2.0
// CPU-minutes in it against 3.1 in the full browser), or the
// full browser when the shell is not installed. CHROME_PATH picks another.
const baseURL = process.env.ROSACE_E2E_BASE_URL ?? 'http://127.0.0.1:3210';
const SHELL = '/usr/bin/chromium-headless-shell';
const chromium = {
  executablePath: process.env.CHROME_PATH ?? (existsSync(SHELL) ? SHELL : '/usr/bin/chromium'),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // One retry, as Playwright's own CI template has: a test that needs it is reported as
  // "flaky" in the output (and by name at the end of end2end/run.sh), not hidden.
  retries: 1,
  reporter: [['list']],
  use: { baseURL, launchOptions: chromium, trace: 'off' },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium } },
    { name: 'mobile', use: { ...devices['Pixel 7'], launchOptions: chromium }, testIgnore: /budget\.spec\.ts/ },
  ],
});

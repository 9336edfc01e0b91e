import { createHmac } from 'node:crypto';
import { type Page } from '@playwright/test';
import { expect } from './fixtures';
import { expectNoViolations } from './a11y';

// An operator's sign-in to the back office (password, then the TOTP code of the demo
// operators' shared key), shared by the back-office specs.

const PASSWORD = 'Rosace-operator-2026';
const SECRET = 'KJXXGYLDMUQGIZLNN4QFIT2UKAQSCIJB';

function base32(s: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of s) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** RFC 6238 (HMAC-SHA1, 30 s, 6 digits): what the operator's phone shows at `unixSecs`. */
function totp(unixSecs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSecs / 30)));
  const h = createHmac('sha1', base32(SECRET)).update(counter).digest();
  const o = h[19] & 0xf;
  const n = ((h[o] & 0x7f) << 24) | (h[o + 1] << 16) | (h[o + 2] << 8) | h[o + 3];
  return String(n % 1_000_000).padStart(6, '0');
}

export async function signIn(page: Page, email: string) {
  await page.goto('/backoffice/sales');
  await expect(page).toHaveURL(/\/backoffice\/signin\?next=/);
  await expectNoViolations(page, undefined, { islands: false });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/backoffice\/signin\/code/);
  await expectNoViolations(page, undefined, { islands: false });
  // A code is good once, and the server also takes the next 30 s step's (an authenticator
  // whose clock runs a little ahead): an operator's second sign-in within a step uses that
  // one, and only a third waits for the next step (each wait was up to 31 s).
  for (let attempt = 0; attempt < 3; attempt++) {
    const ahead = attempt > 0 ? 30 : 0;
    await page.getByLabel(/6-digit code/).fill(totp(Date.now() / 1000 + ahead));
    await page.getByRole('button', { name: 'Continue' }).click();
    if (!/\/signin\/code/.test(page.url())) break;
    await expect(page.getByRole('alert')).toContainText('already used');
    if (attempt === 1) await page.waitForTimeout((30 - ((Date.now() / 1000) % 30) + 1) * 1000);
  }
  await expect(page).toHaveURL(/\/backoffice\/sales$/);
}


/** Ends the operator's session (the next sign-in may be another operator). */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/backoffice\/signin/);
}

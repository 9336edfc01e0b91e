// Runs a page script of public/js (a classic script, as the browser runs it) in the test's
// window and returns the rules it exposes for these tests. Read from the disk: Vite does not
// serve files outside this package with a query (`?raw`).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUBLIC_JS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../public/js');

export function loadPageScript<T>(file: string, global: string): T {
  new Function(readFileSync(resolve(PUBLIC_JS, file), 'utf8'))();
  const rules = (window as unknown as Record<string, unknown>)[global];
  if (!rules) throw new Error(`${file} exposes no ${global}`);
  return rules as T;
}

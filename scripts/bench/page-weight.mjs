// Summary of one page's Lighthouse runs, for scripts/bench/page-weight.sh: the medians, the
// audits below 0.9 (first run), and the first-load bytes by kind, fetched again uncompressed
// and compressed here so raw, gzip and brotli are comparable whatever the server sent.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const { DATA, RUNS, PAGE, COOKIE } = process.env;
const runs = [...Array(+RUNS).keys()].map((i) => JSON.parse(readFileSync(`${DATA}/lh${i + 1}.json`, 'utf8')));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const score = (k) => median(runs.map((r) => r.categories[k].score)).toFixed(2);
const lcp = median(runs.map((r) => r.audits['largest-contentful-paint'].numericValue));
console.log(
  `${PAGE}\n  Lighthouse (median of ${RUNS}): perf ${score('performance')}  LCP ${(lcp / 1000).toFixed(2)} s  ` +
    `a11y ${score('accessibility')}  SEO ${score('seo')}  BP ${score('best-practices')}`,
);
const first = runs[0];
const low = Object.values(first.audits).filter(
  (a) =>
    a.score !== null &&
    a.score < 0.9 &&
    Object.values(first.categories).some((c) => c.auditRefs.some((x) => x.id === a.id && x.weight > 0)),
);
if (low.length) console.log(`  below 0.9: ${low.map((a) => a.id).join(', ')}`);

const kindOf = (req) => {
  const path = new URL(req.url).pathname;
  if (path.endsWith('.wasm')) return 'WASM';
  if (req.resourceType === 'Document') return 'HTML';
  if (req.resourceType === 'Stylesheet' || path.endsWith('.css')) return 'CSS';
  if (req.resourceType === 'Script' || /\.m?js$/.test(path)) return 'JS';
  return null;
};
const totals = {};
for (const req of first.audits['network-requests'].details.items) {
  const kind = kindOf(req);
  if (!kind || !req.url.startsWith('http') || req.statusCode >= 300) continue;
  const res = await fetch(req.url, { headers: { Cookie: COOKIE, 'Accept-Encoding': 'identity' } });
  const body = Buffer.from(await res.arrayBuffer());
  const t = (totals[kind] ??= { files: 0, raw: 0, gzip: 0, brotli: 0 });
  t.files += 1;
  t.raw += body.length;
  t.gzip += gzipSync(body, { level: 9 }).length;
  t.brotli += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}
const kb = (n) => (n / 1024).toFixed(1).padStart(8);
console.log('  first load     files      raw KB  gzip KB  brotli KB');
for (const kind of ['HTML', 'CSS', 'JS', 'WASM']) {
  const t = totals[kind] ?? { files: 0, raw: 0, gzip: 0, brotli: 0 };
  console.log(`  ${kind.padEnd(12)} ${String(t.files).padStart(6)}  ${kb(t.raw)}  ${kb(t.gzip)}  ${kb(t.brotli)}`);
}
const code = ['JS', 'WASM'].reduce((s, k) => s + (totals[k]?.brotli ?? 0), 0);
console.log(`  JS + WASM brotli: ${(code / 1024).toFixed(1)} KB`);

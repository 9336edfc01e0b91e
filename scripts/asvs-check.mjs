#!/usr/bin/env node
// scripts/asvs-check.mjs — black-box check of a running shop against the OWASP ASVS items
// of the security review (/work/shared/reviews/security.md: "Answers to the brief" and the
// findings). Node 20+, no npm dependencies (built-in fetch, redirects never followed).
//
//   node scripts/asvs-check.mjs [--secure] [--idle-secs N] [BASE_URL]
//
// BASE_URL defaults to http://127.0.0.1:3000. --secure: the shop's public origin is https
// (ROSACE_PUBLIC_ORIGIN=https://...) even though BASE_URL is plain http, so cookies must be
// Secure/__Host- and responses carry HSTS; an https BASE_URL implies it. --idle-secs N: the
// server ends idle sessions after N seconds; the check waits N+2 s and expects the session
// gone (without it, only the cookie lifetimes are checked: the server has no setting to
// shorten its 30 min idle timeout, see app/src/platform/session.rs).
//
// It WRITES to the shop (run it on a test shop): it signs the two demo members in
// (ASVS_MEMBER_A / ASVS_MEMBER_B = email:password, default the demo accounts, site
// ASVS_SITE, default 1), registers a throwaway account and locks it, accepts the terms,
// pays a sandbox order, saves a card, bank details and an address for member A.
// Sign-in flood limits must allow ~40 sign-ins from this client (scripts/asvs-check.sh
// raises them). Prints `PASS item` / `FAIL item: why` per item and a total; exits 1 when
// any item fails, 2 when the shop cannot be reached or a member cannot sign in.

import net from 'node:net';

const args = process.argv.slice(2);
let BASE = 'http://127.0.0.1:3000';
let SECURE = false;
let IDLE_SECS = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--secure') SECURE = true;
  else if (a === '--idle-secs') IDLE_SECS = Number(args[++i]);
  else if (a === '-h' || a === '--help') {
    console.log('usage: node scripts/asvs-check.mjs [--secure] [--idle-secs N] [BASE_URL]');
    process.exit(0);
  } else BASE = a.replace(/\/+$/, '');
}
if (BASE.startsWith('https://')) SECURE = true;
const ORIGIN = new URL(BASE).origin;
const SITE = Number(process.env.ASVS_SITE || 1);
const member = (v, d) => {
  const [email, ...rest] = (v || d).split(':');
  return { email, password: rest.join(':') };
};
const MEMBER_A = member(process.env.ASVS_MEMBER_A, 'demo@rosace.test:Rosace-demo-2026');
const MEMBER_B = member(process.env.ASVS_MEMBER_B, 'demo2@rosace.test:Rosace-demo-2026');
const SANDBOX_CARD = '4242424242424242';

// ------------------------------------------------------------------ results

const results = [];
function pass(item, note) {
  results.push({ ok: true, item });
  console.log(`PASS ${item}${note ? ` (${note})` : ''}`);
}
function fail(item, why) {
  results.push({ ok: false, item });
  console.log(`FAIL ${item}: ${why}`);
}
/** Runs one item: `fn` returns a list of problems (empty: pass) or throws. */
async function item(name, fn) {
  try {
    const out = await fn();
    const problems = Array.isArray(out) ? out : out?.problems || [];
    const note = Array.isArray(out) ? '' : out?.note || '';
    if (problems.length === 0) pass(name, note);
    else fail(name, problems.join('; ') + (note ? ` (${note})` : ''));
  } catch (e) {
    fail(name, `error: ${e.message}`);
  }
}

// ------------------------------------------------------------------ HTTP and cookies

/** One Set-Cookie header: name, value and attributes (lower-case keys). */
function parseSetCookie(line) {
  const [pair, ...attrs] = line.split(';');
  const eq = pair.indexOf('=');
  const c = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attrs: {}, raw: line };
  for (const a of attrs) {
    const i = a.indexOf('=');
    const k = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
    if (k) c.attrs[k] = i < 0 ? true : a.slice(i + 1).trim();
  }
  return c;
}

const isSessionName = (n) => /(^|-)rosace_session$/.test(n);
const isXsrfName = (n) => /(^|-)XSRF-TOKEN$/.test(n);

/** A browser-like visitor: its own cookie jar; redirects are returned, not followed. */
class Visitor {
  constructor(label) {
    this.label = label;
    this.jar = new Map();
  }
  cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  get xsrf() {
    for (const [k, v] of this.jar) if (isXsrfName(k)) return v;
    return undefined;
  }
  get session() {
    for (const [k, v] of this.jar) if (isSessionName(k)) return v;
    return undefined;
  }
  sessionCookieName() {
    for (const k of this.jar.keys()) if (isSessionName(k)) return k;
    return SECURE ? '__Host-rosace_session' : 'rosace_session';
  }
  /** method, path; opts: json, form (object or string), headers, xsrf (true: the jar's,
   * false: none, string: that value), cookie (a Cookie header instead of the jar's),
   * keep (do not store the answer's cookies). */
  async req(method, path, opts = {}) {
    const headers = { ...(opts.headers || {}) };
    const cookie = opts.cookie ?? this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const xsrf = opts.xsrf === undefined ? method !== 'GET' : opts.xsrf;
    if (xsrf === true && this.xsrf) headers['x-xsrf-token'] = this.xsrf;
    else if (typeof xsrf === 'string') headers['x-xsrf-token'] = xsrf;
    let body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    } else if (opts.multipart !== undefined) {
      // fetch sets the multipart content type with its boundary.
      body = new FormData();
      for (const [k, v] of Object.entries(opts.multipart)) body.append(k, v);
    } else if (opts.form !== undefined) {
      body = typeof opts.form === 'string' ? opts.form : new URLSearchParams(opts.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(BASE + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const setCookies = res.headers.getSetCookie().map(parseSetCookie);
    if (!opts.keep) {
      for (const c of setCookies) {
        const gone = c.attrs['max-age'] === '0' || c.value === '';
        if (gone) this.jar.delete(c.name);
        else this.jar.set(c.name, c.value);
      }
    }
    return { status: res.status, headers: res.headers, text, json, setCookies };
  }
  async anonToken() {
    if (!this.xsrf) await this.req('GET', '/gr/aboutus');
    if (!this.xsrf) throw new Error('no XSRF cookie from GET /gr/aboutus');
    return this.xsrf;
  }
  /** Signs in through the REST call; returns the response. */
  async login(m, extra = {}) {
    await this.anonToken();
    return this.req('POST', '/api/authentication/v1/login', {
      json: { email: m.email, password: m.password, rememberMe: false, siteId: SITE, ...extra },
    });
  }
}

/** Whether `cookieHeader` authenticates a member (web validate answers the member). */
async function isSignedIn(cookieHeader) {
  const v = new Visitor('probe');
  // webvalidate is a POST: a page gives an XSRF token bound to that session first.
  const session = cookieHeader
    .split(/;\s*/)
    .filter((c) => !isXsrfName(c.split('=')[0]))
    .join('; ');
  const page = await v.req('GET', '/gr/aboutus', { cookie: session, keep: true });
  const x = page.setCookies.find((c) => isXsrfName(c.name));
  if (!x) throw new Error('a page set no XSRF cookie');
  // A token handed to a visitor (the session may be dead) is bound to their visitor
  // cookie, which goes back with it.
  const visitor = page.setCookies
    .filter((c) => /(^|-)rosace_visitor$/.test(c.name))
    .map((c) => `; ${c.name}=${c.value}`)
    .join('');
  const r = await v.req('POST', '/api/authentication/v1/webvalidate', {
    cookie: `${session}; ${x.name}=${x.value}${visitor}`,
    xsrf: x.value,
    keep: true,
  });
  if (r.status !== 200) throw new Error(`webvalidate: HTTP ${r.status}`);
  return r.json?.member != null && r.json?.result === 1;
}

const firstCookie = (r, pred) => r.setCookies.find((c) => pred(c.name));

/** Problems with one cookie's flags. `httpOnly`: true must, false must not, null either. */
function cookieProblems(c, { httpOnly = null, hostPrefix = true } = {}) {
  const p = [];
  const a = c.attrs;
  if (httpOnly === true && !a.httponly) p.push(`${c.name} lacks HttpOnly`);
  if (httpOnly === false && a.httponly) p.push(`${c.name} is HttpOnly but scripts must read it`);
  const ss = String(a.samesite || '').toLowerCase();
  if (ss !== 'lax' && ss !== 'strict') p.push(`${c.name} SameSite=${a.samesite || '(none)'}, want Lax or Strict`);
  if (!a.path) p.push(`${c.name} has no Path`);
  if (a.domain) p.push(`${c.name} has Domain=${a.domain} (sent to sibling hosts)`);
  if (SECURE) {
    if (!a.secure) p.push(`${c.name} lacks Secure although the origin is https`);
    if (hostPrefix && !c.name.startsWith('__Host-')) p.push(`${c.name} has no __Host- prefix although the origin is https`);
    if (c.name.startsWith('__Host-') && a.path !== '/') p.push(`${c.name}: __Host- needs Path=/`);
  } else if (a.secure) {
    p.push(`${c.name} is Secure on an http origin (browsers would drop it)`);
  }
  return p;
}
const overHttpNote = () => (SECURE ? 'https origin: Secure/__Host- asserted' : 'Secure/__Host-: n/a over http');

// ------------------------------------------------------------------ the back office

const OPERATOR = member(process.env.ASVS_OPERATOR, 'admin@rosace.test:Rosace-operator-2026');

/** The back office (server/src/backoffice): its own sessions, never a member's; a second
 * factor before anything; its forms' tokens; its own content policy. */
async function checkBackoffice() {
  const member = new Visitor('member');
  await signIn(member, MEMBER_A);
  await item('back office: every page and form refuses a visitor and a member (to the operators\' sign-in)', async () => {
    const p = [];
    for (const v of [new Visitor('anon'), member]) {
      for (const [method, path] of [
        ['GET', '/backoffice/'], ['GET', '/backoffice/sales'], ['GET', '/backoffice/operators'], ['GET', '/backoffice/audit'],
        ['GET', '/backoffice/import'], ['GET', '/backoffice/sales/1001/dashboard/live'],
        ['POST', '/backoffice/sales/new'], ['POST', '/backoffice/operators/invite'], ['POST', '/backoffice/options/1/stock'],
      ]) {
        const r = await v.req(method, path, method === 'POST' ? { form: { _xsrf: 'x' }, keep: true } : { keep: true });
        const to = r.headers.get('location') || '';
        if (![302, 303].includes(r.status) || !to.startsWith('/backoffice/signin')) p.push(`${v.label} ${method} ${path} -> ${r.status} ${to}`);
      }
    }
    return p;
  });
  const op = new Visitor('operator');
  const page = await op.req('GET', '/backoffice/signin');
  await item('back office: headers of its pages (own CSP without inline script, nosniff, framing, no-store)', () => {
    const p = commonHeaderProblems(page, 'sign-in page');
    const csp = page.headers.get('content-security-policy') || '';
    if (!/script-src 'self'(;|$)/.test(csp) || /unsafe-inline/.test(csp.split('script-src')[1]?.split(';')[0] || '')) p.push(`CSP ${csp}`);
    if (!/form-action 'self'/.test(csp)) p.push(`CSP without form-action 'self': ${csp}`);
    if (!/no-store/.test(page.headers.get('cache-control') || '')) p.push(`Cache-Control ${page.headers.get('cache-control')}`);
    return p;
  });
  const token = (/name="_xsrf" value="([^"]+)"/.exec(page.text) || [])[1];
  await item('back office: sign-in refuses a form without its own token (login CSRF)', async () => {
    const r = await new Visitor('forger').req('POST', '/backoffice/signin', {
      form: { _xsrf: token || 'x', email: OPERATOR.email, password: OPERATOR.password }, keep: true,
    });
    return r.status === 403 && !r.setCookies.some((c) => /rosace_bo$/.test(c.name)) ? [] : [`HTTP ${r.status}, cookies ${r.setCookies.map((c) => c.name)}`];
  });
  const pw = await op.req('POST', '/backoffice/signin', { form: { _xsrf: token, email: OPERATOR.email, password: OPERATOR.password, next: '' } });
  await item('back office: cookie flags (HttpOnly, SameSite=Strict, Path=/backoffice; Secure over https)', () => {
    const p = [];
    for (const [r, name] of [[page, /rosace_bo_pre$/], [pw, /rosace_bo$/]]) {
      const c = r.setCookies.find((x) => name.test(x.name));
      if (!c) { p.push(`no ${name} cookie (HTTP ${r.status})`); continue; }
      p.push(...cookieProblems(c, { httpOnly: true, hostPrefix: false }));
      if (String(c.attrs.samesite || '').toLowerCase() !== 'strict') p.push(`${c.name} SameSite=${c.attrs.samesite}`);
      if (c.attrs.path !== '/backoffice') p.push(`${c.name} Path=${c.attrs.path}`);
      if (SECURE && !c.name.startsWith('__Secure-') && name.source.includes('rosace_bo$')) p.push(`${c.name} without __Secure-`);
    }
    return { problems: p, note: overHttpNote() };
  });
  await item('back office: the password alone opens nothing (a second factor first)', async () => {
    if (pw.status !== 303) return [`the demo operator's password step answered ${pw.status} (ASVS_OPERATOR)`];
    const r = await op.req('GET', '/backoffice/sales', { keep: true });
    const to = r.headers.get('location') || '';
    return [302, 303].includes(r.status) && to.startsWith('/backoffice/signin') ? [] : [`GET /backoffice/sales -> ${r.status} ${to}`];
  });
}

// ------------------------------------------------------------------ the OpenAPI document

let OPENAPI;
const operations = () => {
  const ops = [];
  for (const [path, item] of Object.entries(OPENAPI.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      ops.push({ method: method.toUpperCase(), path, op });
    }
  }
  return ops;
};
// The A/B variations call is a POST that changes nothing and is sent without credentials
// (spec 000 §7): the CSRF layer lets it through by design (server/src/middleware/csrf.rs).
const READ_ONLY_POSTS = /^\/api\/abtesting\/v1\/sites\/\{siteId\}\/members\/\{memberId\}\/variations$/;
const changesState = (o) => o.method !== 'GET' && o.path.startsWith('/api/') && !READ_ONLY_POSTS.test(o.path);
/** The path with its parameters filled with plausible values (or `ids` by name). */
function fillPath(path, ids = {}) {
  return path.replace(/\{([^}]+)\}/g, (_, name) => {
    if (ids[name] !== undefined) return encodeURIComponent(ids[name]);
    if (/guid|ticket/i.test(name)) return '0123456789abcdef0123456789abcdef';
    if (/email/i.test(name)) return 'demo%40rosace.test';
    if (/siteId/.test(name)) return String(SITE);
    if (/idOrName/.test(name)) return 'default';
    if (/popinType/.test(name)) return '5';
    if (/version/.test(name)) return '2';
    if (/saleId/.test(name)) return '1001';
    if (/itemId/.test(name)) return '100101';
    if (/catalogId/.test(name)) return '10010';
    if (/brandId/.test(name)) return '1';
    return '1';
  });
}

// ------------------------------------------------------------------ checks

const A = new Visitor('A');
const B = new Visitor('B');
/** A's objects, made in `setupMemberA`. */
const owned = {};

async function signIn(v, m) {
  const r = await v.login(m);
  if (r.json?.result !== 1 || !v.session) {
    console.log(`ERROR cannot sign ${m.email} in: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    process.exit(2);
  }
  return r;
}

async function checkCookies() {
  const anon = new Visitor('anon');
  const page = await anon.req('GET', '/gr/aboutus');
  const login = await anon.login(MEMBER_A);
  await item('cookie flags: session cookie (HttpOnly, SameSite, Path)', () => {
    const c = firstCookie(login, isSessionName);
    if (!c) return [`sign-in set no session cookie (HTTP ${login.status})`];
    return { problems: cookieProblems(c, { httpOnly: true }), note: overHttpNote() };
  });
  await item('cookie flags: XSRF cookie (script-readable, SameSite, Path; Secure over https)', () => {
    const cs = [firstCookie(page, isXsrfName), firstCookie(login, isXsrfName)];
    if (!cs[0]) return ['a page set no XSRF cookie to an anonymous visitor'];
    if (!cs[1]) return ['sign-in set no new XSRF cookie'];
    return {
      problems: cs.flatMap((c, i) => cookieProblems(c, { httpOnly: false, hostPrefix: false }).map((p) => `${i ? 'member' : 'anonymous'} ${p}`)),
      note: overHttpNote(),
    };
  });
  await item('cookie flags: consent and app-banner cookies (SameSite, Path)', async () => {
    const p = [];
    for (const [kind, extra, name] of [
      ['consent', { choice: 'all' }, 'OptanonConsent'],
      ['app', {}, 'appDownloadBannerClosed'],
    ]) {
      const r = await anon.req('POST', `/onboarding/form/${kind}`, {
        form: { _xsrf: anon.xsrf, kind, back: '/', ...extra },
        keep: true,
      });
      const c = r.setCookies.find((x) => x.name.endsWith(name));
      if (!c) p.push(`${kind} form (HTTP ${r.status}) set no ${name} cookie`);
      else p.push(...cookieProblems(c, { hostPrefix: false }));
    }
    return { problems: p, note: SECURE ? 'https origin: Secure asserted' : 'Secure: n/a over http' };
  });
  await item('cookie flags: site cookie (SameSite, Path; Secure over https: review L13)', async () => {
    const r = await new Visitor('site').req('GET', '/gr/aboutus?site=66');
    const c = r.setCookies.find((x) => x.name === 'site' || x.name.endsWith('-site'));
    if (!c) return [`?site=66 set no site cookie (HTTP ${r.status})`];
    return { problems: cookieProblems(c, { hostPrefix: false }), note: SECURE ? 'https origin: Secure asserted' : 'Secure: n/a over http' };
  });
  await item('cookie flags: XSRF cookie named __Host- over https (review L2)', () => {
    if (!SECURE) return { note: 'n/a over http' };
    const c = firstCookie(login, isXsrfName);
    return c && !c.name.startsWith('__Host-') ? [`the XSRF cookie is ${c.name}`] : [];
  });
}

function commonHeaderProblems(r, what) {
  const h = r.headers;
  const p = [];
  if ((h.get('x-content-type-options') || '').toLowerCase() !== 'nosniff') p.push(`${what}: no X-Content-Type-Options: nosniff`);
  const rp = (h.get('referrer-policy') || '').toLowerCase();
  if (!['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'].includes(rp))
    p.push(`${what}: Referrer-Policy ${rp || '(none)'}`);
  const csp = h.get('content-security-policy') || '';
  const xfo = (h.get('x-frame-options') || '').toUpperCase();
  if (!/frame-ancestors\s+'none'/.test(csp) && xfo !== 'DENY' && xfo !== 'SAMEORIGIN')
    p.push(`${what}: neither CSP frame-ancestors nor X-Frame-Options`);
  const hsts = h.get('strict-transport-security') || '';
  if (SECURE) {
    const age = Number((/max-age=(\d+)/i.exec(hsts) || [])[1] || 0);
    if (age < 15552000) p.push(`${what}: HSTS ${hsts || '(none)'} (want max-age >= 180 days) although the origin is https`);
  } else if (hsts) {
    p.push(`${what}: HSTS sent on an http origin`);
  }
  return p;
}

async function checkHeaders() {
  const anon = new Visitor('anon');
  let page;
  await item('headers: page (CSP with a fresh nonce, nosniff, Referrer-Policy, framing, HSTS)', async () => {
    page = await anon.req('GET', '/');
    const again = await new Visitor('anon2').req('GET', '/');
    const p = commonHeaderProblems(page, 'GET /');
    const csp = page.headers.get('content-security-policy') || '';
    const nonce = (/script-src[^;]*'nonce-([^']+)'/.exec(csp) || [])[1];
    if (!nonce) p.push(`GET /: CSP script-src without a nonce: ${csp || '(no CSP)'}`);
    if (/script-src[^;]*'unsafe-inline'/.test(csp) && !nonce) p.push("GET /: script-src 'unsafe-inline'");
    if (!/default-src|script-src/.test(csp)) p.push('GET /: CSP has no default-src/script-src');
    if (/object-src\s+'none'/.test(csp) === false) p.push("GET /: CSP without object-src 'none'");
    if (!/base-uri/.test(csp)) p.push('GET /: CSP without base-uri');
    if (nonce) {
      const scripts = [...page.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      const executable = scripts.filter((s) => !/type="application\/(ld\+)?json"/.test(s));
      const wrong = executable.filter((s) => !s.includes(`nonce="${nonce}"`) && !/\bsrc=/.test(s));
      if (wrong.length) p.push(`GET /: ${wrong.length} inline script(s) without the header's nonce, e.g. ${wrong[0]}`);
      const nonce2 = (/'nonce-([^']+)'/.exec(again.headers.get('content-security-policy') || '') || [])[1];
      if (nonce2 === nonce) p.push('GET / twice: the same CSP nonce (not fresh per response)');
    }
    return { problems: p, note: SECURE ? 'HSTS asserted' : 'HSTS: n/a over http' };
  });
  await item('headers: API answer (nosniff, Referrer-Policy, framing, HSTS)', async () => {
    const r = await anon.req('GET', '/api/content/v1/translations');
    return commonHeaderProblems(r, 'GET /api/content/v1/translations');
  });
  await item('headers: static file (nosniff, Referrer-Policy, framing, HSTS)', async () => {
    // Built files (content-hashed), images, widgets: the first the page names that is served.
    const refs = page ? [...page.text.matchAll(/(?:src|href)="(\/(?:pkg|js|widgets|img|favicon)[^"?#]*)"/g)].map((m) => m[1]) : [];
    let r;
    let path;
    for (path of [...new Set(refs)].slice(0, 20)) {
      r = await anon.req('GET', path);
      if (r.status === 200) break;
    }
    if (!r || r.status !== 200) return [`no static file the page names is served (last: GET ${path}: HTTP ${r?.status})`];
    return { problems: commonHeaderProblems(r, `GET ${path}`), note: path };
  });
}

/** The parameter-less GETs that answer a member but not a visitor: member answers. */
async function memberGets() {
  const out = [];
  for (const o of operations()) {
    if (o.method !== 'GET' || o.path.includes('{') || !o.path.startsWith('/api/')) continue;
    // Freezes the cart (review L1): never called by this sweep.
    if (o.path === '/api/cartproxy/orderpiper/cart/v3') continue;
    const anon = await new Visitor('anon').req('GET', o.path);
    if (anon.status === 401 || anon.status === 403) out.push(o.path);
  }
  return out;
}

async function checkNoStore() {
  await item('anti-caching: Cache-Control no-store on member API answers (review L3)', async () => {
    const p = [];
    const paths = await memberGets();
    for (const path of paths) {
      const r = await A.req('GET', path);
      const cc = r.headers.get('cache-control') || '';
      if (r.status >= 200 && r.status < 300 && !/no-store/i.test(cc)) p.push(`GET ${path}: Cache-Control ${cc || '(none)'}`);
    }
    const wv = await A.req('POST', '/api/authentication/v1/webvalidate');
    if (!/no-store/i.test(wv.headers.get('cache-control') || '')) p.push(`POST webvalidate: Cache-Control ${wv.headers.get('cache-control') || '(none)'}`);
    if (p.length > 4) p.splice(4, p.length - 4, `... ${p.length - 4} more`);
    return { problems: p, note: `${paths.length + 1} member answers` };
  });
  await item('anti-caching: Cache-Control no-store on member pages (review L3)', async () => {
    const r = await A.req('GET', '/cart');
    const cc = r.headers.get('cache-control') || '';
    if (r.status !== 200) return [`GET /cart as a member: HTTP ${r.status}`];
    return /no-store/i.test(cc) ? [] : [`GET /cart as a member: Cache-Control ${cc || '(none)'}`];
  });
}

/** A plausible body for an operation (enough to get past parsing to the handler). */
function bodyFor(o) {
  if (!o.op.requestBody) return undefined;
  const content = o.op.requestBody.content || {};
  if (!content['application/json']) return undefined;
  return {};
}

async function checkCsrf() {
  // A well-formed token of another binding (an anonymous visitor's): must not pass for a member.
  const other = await new Visitor('other').anonToken();
  const garbage = 'deadbeefdeadbeefdeadbeefdeadbeef.' + '0'.repeat(64);
  const ops = operations().filter(changesState);
  // Session enders last, so that a wrongly accepted one cannot hide the others' answers.
  const enders = /logout|account\/deactivate|^DELETE \/api\/postsales\/v1\/account$/;
  ops.sort((x, y) => enders.test(`${x.method} ${x.path}`) - enders.test(`${y.method} ${y.path}`));
  const csrfMember = new Visitor('csrf');
  await signIn(csrfMember, MEMBER_B);
  await item(`CSRF: every state-changing API operation refuses a missing or wrong X-XSRF-TOKEN (${ops.length} operations, member session)`, async () => {
    const p = [];
    for (const o of ops) {
      const path = fillPath(o.path);
      const json = bodyFor(o);
      // The last: an anonymous token planted as the cookie and echoed (cookie tossing, L2).
      const xsrfName = [...csrfMember.jar.keys()].find(isXsrfName) || 'XSRF-TOKEN';
      const tossed = `${csrfMember.sessionCookieName()}=${csrfMember.session}; ${xsrfName}=${other}`;
      for (const [label, xsrf, cookie] of [
        ['no header', false],
        ["another visitor's token", other],
        ['a forged token', garbage],
        ["another visitor's token as cookie and header", other, tossed],
      ]) {
        const r = await csrfMember.req(o.method, path, { json, xsrf, cookie, keep: true });
        if (r.status !== 403) p.push(`${o.method} ${o.path} with ${label}: HTTP ${r.status}${r.status < 300 ? ' (accepted!)' : ''}`);
      }
    }
    if (!(await isSignedIn(csrfMember.cookieHeader()))) p.push('the member was signed out by a request without a valid token');
    // Control: the same session with its own token is accepted (the 403s are the token's).
    const ok = await csrfMember.req('POST', '/api/authentication/v1/webvalidate', { xsrf: true, keep: true });
    if (ok.status !== 200) p.push(`control: webvalidate with the session's own token answered HTTP ${ok.status}`);
    return p;
  });
  await item('CSRF: HTML form targets refuse a missing or wrong _xsrf field', async () => {
    const p = [];
    const forms = [
      '/gr/authentication/form',
      '/onboarding/form/consent',
      '/myaccount/form/profile',
      '/myaccount/form/password',
      '/myaccount/form/delete',
      '/find/recent/1/delete',
      '/postsales/myaccount/wallet/form/save',
      '/communications/form/preferences',
      '/vouchers-promotions/form/toggle',
      '/postsales/myaccount/addresses/form/save',
    ];
    for (const path of forms) {
      for (const [label, token] of [
        ['no _xsrf', null],
        ["another visitor's token", other],
      ]) {
        const form = { action: 'save', kind: 'consent', choice: 'all', step: 'email', email: 'x@rosace.test' };
        if (token) form._xsrf = token;
        const r = await csrfMember.req('POST', path, { form, xsrf: false, keep: true });
        if (r.status !== 403) p.push(`POST ${path} with ${label}: HTTP ${r.status}`);
      }
    }
    return { problems: p, note: `${forms.length} forms` };
  });
}

async function checkSessions() {
  await item('session: a planted session cookie does not survive sign-in (fixation)', async () => {
    const v = new Visitor('fix');
    const planted = '0123456789abcdef0123456789abcdef';
    v.jar.set(v.sessionCookieName(), planted);
    const r = await v.login(MEMBER_A);
    const c = firstCookie(r, isSessionName);
    if (!c) return ['sign-in set no session cookie'];
    if (c.value === planted) return ['the planted token was kept'];
    if (await isSignedIn(`${c.name}=${planted}`)) return ['the planted token now authenticates'];
    return [];
  });
  await item('session: sign-in rotates the token and the XSRF token; the old token is ended', async () => {
    const v = new Visitor('rot');
    await signIn(v, MEMBER_A);
    const [t1, x1, name] = [v.session, v.xsrf, v.sessionCookieName()];
    const r = await v.login(MEMBER_A);
    const p = [];
    if (r.json?.result !== 1) p.push(`second sign-in: ${r.text.slice(0, 100)}`);
    if (v.session === t1) p.push('the second sign-in kept the session token');
    if (v.xsrf === x1) p.push('the XSRF token was not renewed at sign-in');
    if (await isSignedIn(`${name}=${t1}`)) p.push('the previous token still authenticates');
    if (!(await isSignedIn(v.cookieHeader()))) p.push('the new token does not authenticate');
    return p;
  });
  await item('session: logout ends the session server-side', async () => {
    const v = new Visitor('logout');
    await signIn(v, MEMBER_A);
    const old = `${v.sessionCookieName()}=${v.session}`;
    const r = await v.req('POST', '/api/authentication/v1/logout');
    const p = [];
    if (r.status < 200 || r.status > 299) p.push(`logout: HTTP ${r.status}`);
    const cleared = firstCookie(r, isSessionName);
    if (!cleared || (cleared.attrs['max-age'] !== '0' && cleared.value !== '')) p.push('logout did not expire the session cookie');
    if (await isSignedIn(old)) p.push('the old session cookie still authenticates after logout');
    const g = await new Visitor('old').req('GET', '/api/address/v1', { cookie: old });
    if (g.status === 200) p.push(`GET /api/address/v1 with the old cookie: HTTP 200`);
    return p;
  });
  await item('session: the logout link does not end a session from another site (review L1)', async () => {
    const v = new Visitor('xsite');
    await signIn(v, MEMBER_A);
    const r = await v.req('GET', '/authentication/logout/', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      keep: true,
    });
    return (await isSignedIn(v.cookieHeader())) ? [] : [`a cross-site GET of the logout link (HTTP ${r.status}) ended the session`];
  });
  await item('session: idle timeout', async () => {
    const v = new Visitor('idle');
    const r = await signIn(v, MEMBER_A);
    const c = firstCookie(r, isSessionName);
    const p = [];
    if (c.attrs['max-age'] || c.attrs.expires) p.push(`a sign-in without "remember me" set a persistent cookie (${c.raw})`);
    const rem = await new Visitor('remember').login(MEMBER_A, { rememberMe: true });
    const rc = firstCookie(rem, isSessionName);
    const age = Number(rc?.attrs['max-age'] || 0);
    if (!rc || !(age > 0 && age <= 30 * 86400)) p.push(`"remember me" cookie Max-Age ${rc?.attrs['max-age']} (want 1 s .. 30 days)`);
    if (IDLE_SECS) {
      await new Promise((ok) => setTimeout(ok, (IDLE_SECS + 2) * 1000));
      if (await isSignedIn(v.cookieHeader())) p.push(`the session still works after ${IDLE_SECS + 2} s idle`);
      return { problems: p, note: `waited ${IDLE_SECS + 2} s past the idle timeout` };
    }
    return {
      problems: p,
      note: 'cookie lifetimes only: the 30 min idle timeout is fixed in app/src/platform/session.rs with no setting, so it was not waited for',
    };
  });
}

/// The status line a raw connection gets after announcing an 8 MB multipart POST and
/// sending a few bytes of it, or null when nothing comes within `ms` (review N3).
function statusBeforeBody(path, cookie, ms) {
  return new Promise((resolve) => {
    const url = new URL(BASE);
    const socket = net.connect(Number(url.port || 80), url.hostname);
    let got = '';
    const done = (v) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), ms);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n')) done(got.split('\r\n')[0]);
    });
    socket.on('error', () => done(null));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\n` +
        `Content-Length: 8000000\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\n--XyZ\r\nContent-Disposition: form-data; name="body"\r\n\r\nx`,
    );
  });
}

async function checkInputHygiene() {
  await item('uploads: forms with files refuse a visitor before reading the body (review N3)', async () => {
    const p = [];
    for (const path of ['/helpform/send', '/rosedeals/forms/contact']) {
      const line = await statusBeforeBody(path, '', 5000);
      if (!line || !/^HTTP\/1\.1 30\d/.test(line)) p.push(`${path}: ${line ?? 'no answer within 5 s'}`);
    }
    return { problems: p };
  });
  await item('output encoding: a ticket title with a line break or terminal escape is refused (review N10)', async () => {
    const p = [];
    for (const title of ['Question\r\nBcc: all@example.com', 'Question \u001b[2J']) {
      const r = await A.req('POST', '/api/postsale/v1/help/contact', {
        json: { contactFrom: 'Front', subjectId: 'other', subjectTitle: title, body: 'Une question de A sur sa commande.' },
      });
      const fields = (r.json?.fieldErrors ?? []).map((f) => f.field);
      if (r.status !== 400 || !fields.includes('subjectTitle')) p.push(`${JSON.stringify(title)}: HTTP ${r.status} ${r.text.slice(0, 100)}`);
    }
    return { problems: p };
  });
}

async function checkSafeMethods() {
  const crossSite = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  await item('safe methods: a cross-site GET does not freeze the cart (review L1)', async () => {
    await A.req('POST', '/api/cartproxy/orderpiper/cart/v3/cancel-order');
    const before = await A.req('GET', '/api/cartproxy/v1');
    const status = (r) => r.json?.status ?? r.json?.cart?.status;
    if (before.status !== 200 || status(before) !== 'open') return [`A's cart is not open to start with (HTTP ${before.status}, ${status(before)})`];
    const r = await A.req('GET', '/api/cartproxy/orderpiper/cart/v3', { headers: crossSite, xsrf: false });
    const after = await A.req('GET', '/api/cartproxy/v1');
    await A.req('POST', '/api/cartproxy/orderpiper/cart/v3/cancel-order');
    return status(after) === 'open' ? { note: `HTTP ${r.status}` } : [`a cross-site navigation to the freeze URL (HTTP ${r.status}) left the cart ${status(after)}`];
  });
  await item('safe methods: a cross-site GET does not record a search (review L1)', async () => {
    const q = `asvsxsite${Date.now().toString(36)}`;
    await A.req('GET', `/api/catalog/v8/search/items?q=${q}&siteId=${SITE}`, { headers: crossSite, xsrf: false });
    const recent = await A.req('GET', '/api/catalog/v1/search/recent');
    return (recent.json?.recentQueries || []).some((x) => x.query === q) ? ['a cross-site navigation to the search API planted a recent search'] : [];
  });
}

async function checkLockout() {
  await item('lockout: wrong passwords lock the account (result 4), then the right password is refused', async () => {
    const v = new Visitor('lockout');
    await v.anonToken();
    const email = `asvs-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@rosace.test`;
    const password = 'Zq7-lockout-check';
    const reg = await v.req('POST', '/api/authentication/v1/subscribe', {
      json: {
        siteId: SITE, email, password, civility: 1, firstName: 'Asvs', lastName: 'Check',
        birthDate: '01/02/1990', zipCode: '75002', city: 'Paris', cgv: true, privacyPolicy: true,
        optinPartner: false, sponsorshipCode: '',
      },
    });
    if (reg.status !== 201) return [`cannot register a throwaway account: HTTP ${reg.status} ${reg.text.slice(0, 120)}`];
    const codes = [];
    let lockedAt = 0;
    for (let i = 1; i <= 10 && !lockedAt; i++) {
      const r = await v.login({ email, password: `wrong-${i}-password` });
      codes.push(r.json?.result ?? `HTTP ${r.status}`);
      if (r.json?.result === 4) lockedAt = i;
    }
    if (!lockedAt) return [`no lock after 10 wrong passwords (results ${codes.join(',')})`];
    const right = await v.login({ email, password });
    const p = [];
    if (right.json?.result !== 4) p.push(`the right password after the lock answered result ${right.json?.result ?? right.status}`);
    if (firstCookie(right, isSessionName)) p.push('the right password after the lock set a session cookie');
    if (right.json?.lockedUntil == null) p.push('no lockedUntil in the locked answer');
    return { problems: p, note: `locked at attempt ${lockedAt}, results ${codes.join(',')}` };
  });
}

/** A throwaway account registered by `v` (active at once), or an error text. */
async function throwaway(v, label, password) {
  const email = `asvs-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@rosace.test`;
  const reg = await v.req('POST', '/api/authentication/v1/subscribe', {
    json: {
      siteId: SITE, email, password, civility: 1, firstName: 'Asvs', lastName: 'Check',
      birthDate: '01/02/1990', zipCode: '75002', city: 'Paris', cgv: true, privacyPolicy: true,
      optinPartner: false, sponsorshipCode: '',
    },
  });
  return reg.status === 201 ? { email } : { error: `cannot register a throwaway account: HTTP ${reg.status} ${reg.text.slice(0, 120)}` };
}

/** Starts a social sign-in for `v` and signs in at the provider as `email`: the shop's
 * answer to the provider's redirect (the callback, as `v`). Null when no provider is set. */
async function socialRoundTrip(v, email, startPath = '/api/authentication/v1/thirdparty/google/login') {
  const start = await v.req('POST', startPath, { json: { returnUrl: '/' } });
  const url = start.json?.authorizationUrl;
  if (start.status !== 200 || !url) return { error: `start: HTTP ${start.status} ${start.text.slice(0, 100)}` };
  const authorize = new URL(url);
  const form = new URLSearchParams();
  for (const k of ['client_id', 'redirect_uri', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'response_type']) {
    form.set(k, authorize.searchParams.get(k) ?? '');
  }
  form.set('email', email);
  form.set('given_name', 'Asvs');
  form.set('family_name', 'Check');
  const atProvider = await fetch(authorize.origin + authorize.pathname, {
    method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const back = new URL(atProvider.headers.get('location') ?? '', BASE);
  const callback = await v.req('GET', back.pathname + back.search);
  return { callback };
}

/** A sign-in as if from the address `from`, through a proxy the shop trusts. */
function loginFrom(v, email, password, from) {
  return v.req('POST', '/api/authentication/v1/login', {
    json: { email, password, rememberMe: false, siteId: SITE },
    headers: { 'x-forwarded-for': from },
  });
}

async function checkReviewTwo() {
  // Review N5: the social ticket of code 13, sent to someone else, opens nothing.
  await item('social sign-in: a registration ticket works only in the browser that started it (review N5)', async () => {
    const attacker = new Visitor('n5-attacker');
    await attacker.anonToken();
    const email = `asvs-n5-${Date.now().toString(36)}@example.test`;
    const trip = await socialRoundTrip(attacker, email);
    if (trip.error) return [`${trip.error} (the shop needs a social provider: scripts/asvs-check.sh starts the test one)`];
    const next = trip.callback.headers.get('location') ?? '';
    const ticket = new URL(next, BASE).searchParams.get('ticket');
    if (!ticket) return [`no code 13 ticket after the provider (HTTP ${trip.callback.status}, ${next})`];
    const subscribe = { token: ticket, civility: 1, firstName: 'Asvs', lastName: 'Check', cgv: true, privacyPolicy: true };
    const victim = new Visitor('n5-victim');
    await victim.anonToken();
    const p = [];
    const stolen = await victim.req('POST', '/api/authentication/v1/thirdparty/subscribe', { json: subscribe });
    if (stolen.json?.result === 1 || firstCookie(stolen, isSessionName)) p.push(`another browser registered with the ticket (result ${stolen.json?.result})`);
    const own = await attacker.req('POST', '/api/authentication/v1/thirdparty/subscribe', { json: subscribe });
    if (own.json?.result !== 1) p.push(`the starting browser could not use its own ticket (result ${own.json?.result ?? own.status})`);
    return { problems: p, note: `other browser: result ${stolen.json?.result}` };
  });
  // (Before N6's item, which uses up this client's social starts.)
  // Review N1: what can hand the account over asks for the password; nothing changes without.
  await item('re-authentication: email change, bank details, ending other sessions, deactivate and delete refuse a missing or wrong password (review N1)', async () => {
    const p = [];
    const newEmail = `asvs-n1-${Date.now().toString(36)}@example.test`;
    const tries = [
      ['POST', '/api/postsales/v1/account/email', { Email: newEmail, ConfirmEmail: newEmail }],
      ['POST', '/api/postsales/v1/wallet/bankdetails', { iban: 'DE89370400440532013000', bic: '', ownerName: 'Camille Asvs', confirmation: true }],
      ['POST', '/api/authentication/v1/sessions/end-others', {}],
      ['POST', '/api/postsales/v1/account/deactivate', { reason: 'OTHER' }],
      ['DELETE', '/api/postsales/v1/account', {}],
    ];
    for (const [method, path, body] of tries) {
      for (const currentPassword of [undefined, 'not-the-password-1A']) {
        const r = await A.req(method, path, { json: currentPassword ? { ...body, currentPassword } : body });
        if (r.status !== 400 || r.json?.error_code !== 'currentpassword') p.push(`${method} ${path} ${currentPassword ? 'with a wrong' : 'without a'} password: HTTP ${r.status} ${r.text.slice(0, 80)}`);
      }
    }
    const still = await A.req('GET', '/api/postsales/v1/account');
    if (still.status !== 200) p.push(`A's session no longer works after the refusals (HTTP ${still.status})`);
    const wallet = await A.req('GET', '/api/postsales/v1/wallet');
    if (wallet.json?.iban?.last4 === '3000') p.push('the bank details changed without the password');
    const right = await A.req('POST', '/api/postsales/v1/wallet/bankdetails', {
      json: { iban: 'FR1420041010050500013M02606', bic: 'PSSTFRPPPAR', ownerName: 'Camille Asvs', confirmation: true, currentPassword: MEMBER_A.password },
    });
    if (right.status !== 200) p.push(`with the password the bank details were refused: HTTP ${right.status}`);
    return { problems: p, note: `${tries.length * 2} refusals` };
  });
  await item('re-authentication: a member without a password must sign in again with the provider, which counts for that session (review N1)', async () => {
    const v = new Visitor('n1-social');
    await v.anonToken();
    const email = `asvs-n1s-${Date.now().toString(36)}@example.test`;
    const trip = await socialRoundTrip(v, email);
    if (trip.error) return [trip.error];
    const ticket = new URL(trip.callback.headers.get('location') ?? '', BASE).searchParams.get('ticket');
    const made = await v.req('POST', '/api/authentication/v1/thirdparty/subscribe', {
      json: { token: ticket, civility: 1, firstName: 'Asvs', lastName: 'Check', cgv: true, privacyPolicy: true },
    });
    if (made.json?.result !== 1) return [`the provider-only member was not registered (result ${made.json?.result ?? made.status})`];
    const moved = `moved-${email}`;
    const change = () => v.req('POST', '/api/postsales/v1/account/email', { json: { Email: moved, ConfirmEmail: moved } });
    const before = await change();
    if (before.status !== 403 || before.json?.error_code !== 'reauthrequired') return [`before a new provider sign-in: HTTP ${before.status} ${before.text.slice(0, 80)}`];
    const stale = await socialRoundTrip(v, email.replace('@', '+stale@'), '/api/authentication/v1/thirdparty/google/reauth');
    if (stale.error) return [stale.error];
    if ((await change()).status !== 403) return ['a provider answer with an old check made the session fresh'];
    const again = await socialRoundTrip(v, email, '/api/authentication/v1/thirdparty/google/reauth');
    if (again.error) return [again.error];
    const back = again.callback.headers.get('location') ?? '';
    if (!back.includes('notice=reauth.social.fresh')) return [`the provider's answer led to ${back}`];
    const after = await change();
    return after.status === 200 ? { note: 'HTTP 403, then 200 after the new sign-in' } : [`after a new provider sign-in: HTTP ${after.status} ${after.text.slice(0, 80)}`];
  });
  // Review N6: each start keeps a row for 10 minutes; one client cannot start without end.
  await item('social sign-in: one client\'s starts are rate-limited (review N6)', async () => {
    const v = new Visitor('n6');
    await v.anonToken();
    const statuses = [];
    for (let i = 0; i < 45; i++) {
      const r = await v.req('POST', '/api/authentication/v1/thirdparty/google/login', { json: { returnUrl: '/' } });
      statuses.push(r.status);
      if (r.status === 429) return { note: `429 at start ${i + 1}` };
      if (r.status !== 200) return [`start ${i + 1}: HTTP ${r.status} ${r.text.slice(0, 100)}`];
    }
    return [`45 starts in a row, none refused`];
  });
  // Review N8: wrong passwords from many addresses add up on the account.
  await item('lockout: failures from many addresses reach an account-wide ceiling (review N8)', async () => {
    const v = new Visitor('n8');
    await v.anonToken();
    const password = 'Zq7-ceiling-check';
    const made = await throwaway(v, 'n8', password);
    if (made.error) return [made.error];
    const codes = [];
    for (let i = 1; i <= 120; i++) {
      // Two wrong passwords per address: under any address's own lock.
      const from = `198.51.100.${Math.ceil(i / 2)}`;
      const r = await loginFrom(v, made.email, `wrong-${i}-password`, from);
      codes.push(r.json?.result ?? `HTTP ${r.status}`);
      if (r.json?.result === 4) {
        if (i <= 5) return [`locked at attempt ${i}: the shop did not tell the addresses apart (X-Forwarded-For from 127.0.0.1 must be believed: ROSACE_TRUSTED_PROXIES=127.0.0.1)`];
        const right = await loginFrom(v, made.email, password, '192.0.2.1');
        return right.json?.result === 4 ? { note: `paused at failure ${i}` } : [`paused at ${i}, but the right password from a new address answered ${right.json?.result}`];
      }
    }
    return [`120 wrong passwords from 60 addresses, no pause (results ${[...new Set(codes)].join(',')})`];
  });
  // Review N2: a member's files have a daily quota (scripts/asvs-check.sh sets it to 1 MB).
  await item('uploads: a member\'s files past the day\'s quota are refused, a message without files still goes (review N2)', async () => {
    const png = new Uint8Array(600 * 1024);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const fields = { contactFrom: 'Front', subjectId: 'other', subjectTitle: 'Photos', body: 'Voici les photos du colis abîmé.' };
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const r = await A.req('POST', '/api/postsale/v1/help/contact', {
        multipart: { ...fields, fileAttachments: new Blob([png], { type: 'image/png' }) },
      });
      statuses.push(r.status);
      if (r.status === 413) {
        if (r.json?.error_code !== 'upload_quota') return [`413 without the quota's code: ${r.text.slice(0, 120)}`];
        const plain = await A.req('POST', '/api/postsale/v1/help/contact', { json: fields });
        return plain.status === 201 ? { note: `refused at upload ${i + 1}` } : [`after the refusal a message without files answered HTTP ${plain.status}`];
      }
      if (r.status !== 201) return [`upload ${i + 1}: HTTP ${r.status} ${r.text.slice(0, 120)}`];
    }
    return [`5 uploads of 600 KB in a row, none refused (${statuses.join(',')})`];
  });
  // Review N4: a password change in My account ends the recovery links sent before.
  const outbox = process.env.ASVS_OUTBOX;
  if (outbox) {
    await item('credentials: a password change ends a recovery link sent before it (review N4)', async () => {
      const fs = await import('node:fs');
      const path = await import('node:path');
      const v = new Visitor('n4');
      await v.anonToken();
      const first = 'Zq7-n4-first-pass';
      const made = await throwaway(v, 'n4', first);
      if (made.error) return [made.error];
      const mails = () => fs.readdirSync(outbox)
        .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
        .filter((m) => m.includes(`To: ${made.email}`));
      await new Promise((ok) => setTimeout(ok, 300));
      const activation = mails().map((m) => m.match(/signin=activate&cypher=([0-9a-f]+)/)).find(Boolean);
      if (!activation) return ['no activation link in the outbox'];
      const active = await v.req('POST', '/api/authentication/v1/activate', { json: { siteId: SITE, cypher: activation[1] } });
      if (active.status !== 200) return [`activation: HTTP ${active.status}`];
      const signed = await v.login({ email: made.email, password: first });
      if (signed.json?.result !== 1) return [`the throwaway account cannot sign in (result ${signed.json?.result ?? signed.status})`];
      const asked = await v.req('POST', '/api/authentication/v1/password/recover', { json: { email: made.email, siteId: SITE } });
      if (asked.status !== 200) return [`recovery: HTTP ${asked.status}`];
      await new Promise((ok) => setTimeout(ok, 300));
      const link = mails().map((m) => m.match(/cypher=([0-9a-f]+)&memberid=(\d+)/)).find(Boolean);
      if (!link) return ['no recovery link in the outbox'];
      const changed = await v.req('POST', '/api/postsales/v1/account/password', {
        json: { oldPassword: first, newPassword: 'Zq7-n4-second-pass' },
      });
      if (changed.status !== 200) return [`password change: HTTP ${changed.status} ${changed.text.slice(0, 100)}`];
      const used = await v.req('POST', '/api/authentication/v1/password/update', {
        json: { siteId: SITE, cypher: link[1], memberId: Number(link[2]), newPassword: 'Zq7-n4-attacker-pass' },
      });
      if (used.status === 200) return ['the recovery link sent before the change still set a password'];
      // A link asked for after the change works: the refusal was the old link's, not the call's.
      await v.req('POST', '/api/authentication/v1/password/recover', { json: { email: made.email, siteId: SITE } });
      await new Promise((ok) => setTimeout(ok, 300));
      const fresh = mails().map((m) => m.match(/cypher=([0-9a-f]+)&memberid=(\d+)/)).find((m) => m && m[1] !== link[1]);
      if (!fresh) return ['no second recovery link in the outbox'];
      const ok = await v.req('POST', '/api/authentication/v1/password/update', {
        json: { siteId: SITE, cypher: fresh[1], memberId: Number(fresh[2]), newPassword: 'Zq7-n4-third-pass' },
      });
      return ok.status === 200 ? { note: `old link: HTTP ${used.status}, new link: HTTP 200` } : [`a link asked after the change answered HTTP ${ok.status} too`];
    });
  }
  // Review N7: the log keeps no email or token from a path.
  const log = process.env.ASVS_SERVER_LOG;
  if (log) {
    await item('logs: no email address or print token from a path in the server log (review N7)', async () => {
      const fs = await import('node:fs');
      const email = `asvs.n7.${Date.now().toString(36)}@example.test`;
      await A.req('GET', `/api/authentication/v1/members/${email}/sites/${SITE}/exists`);
      const printed = await A.req('POST', '/api/cartproxy/v1/vouchers/print', { json: {} });
      const url = printed.json?.printUrl;
      if (!url) return [`no print link for A: HTTP ${printed.status} ${printed.text.slice(0, 100)}`];
      const page = await A.req('GET', url);
      await new Promise((ok) => setTimeout(ok, 300));
      const text = fs.readFileSync(log, 'utf8');
      const token = url.split('/').pop();
      const p = [];
      if (!text.includes('/vouchers/print/')) p.push('the log has no request lines (RUST_LOG below info?)');
      if (text.includes(email)) p.push('the email typed on the sign-in page is in the log');
      if (text.includes(token)) p.push('the voucher print token is in the log');
      return { problems: p, note: `print page HTTP ${page.status}` };
    });
  }
}

/** Whether a redirect target stays on the shop's origin. */
function offSite(target) {
  if (target == null) return false;
  const t = String(target).trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith(ORIGIN)) return true; // javascript:, https://evil
  if (/^[/\\]{2}/.test(t) || /^\/\\/.test(t)) return true;
  try {
    return new URL(t, BASE).origin !== ORIGIN;
  } catch {
    return true;
  }
}

async function checkOpenRedirects() {
  const payloads = ['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/%2F%2Fevil.example', ' //evil.example'];
  const found = [];
  const check = (where, target) => {
    if (offSite(target)) found.push(`${where}: ${JSON.stringify(target)}`);
  };
  await item(`open redirects: every redirect parameter refuses off-site targets (${payloads.length} payloads)`, async () => {
    let tried = 0;
    for (const evil of payloads) {
      // JSON sign-in: returnUrl -> redirectUrl.
      const v = new Visitor('redir');
      const r = await v.login(MEMBER_A, { returnUrl: evil });
      tried++;
      if (r.json?.result !== 1) found.push(`JSON sign-in did not succeed (${r.text.slice(0, 80)})`);
      check(`POST /api/authentication/v1/login returnUrl=${evil} -> redirectUrl`, r.json?.redirectUrl);
      // Form sign-in: returnurl -> Location (303).
      const f = new Visitor('redirform');
      await f.anonToken();
      const fr = await f.req('POST', '/gr/authentication/form', {
        form: { _xsrf: f.xsrf, step: 'password', email: MEMBER_A.email, password: MEMBER_A.password, returnurl: evil },
      });
      tried++;
      if (fr.status < 300 || fr.status > 399) found.push(`form sign-in answered HTTP ${fr.status}`);
      check(`POST /gr/authentication/form returnurl=${evil} -> Location`, fr.headers.get('location'));
      // Autologin link (failure path: back to sign-in with the return URL) and API.
      for (const name of ['returnurl', 'ReturnUrl']) {
        const al = await new Visitor('al').req('GET', `/gr/authentication/autologin?cypher=nope&${name}=${encodeURIComponent(evil)}`);
        tried++;
        const loc = al.headers.get('location');
        check(`GET /gr/authentication/autologin ${name}=${evil} -> Location`, loc);
        const inner = loc && new URL(loc, BASE).searchParams.get('returnurl');
        check(`GET /gr/authentication/autologin ${name}=${evil} -> Location's returnurl`, inner);
      }
      const ap = await v.req('POST', '/api/authentication/v1/autologin', { json: { siteId: SITE, cypher: 'nope', returnUrl: evil } });
      tried++;
      check(`POST /api/authentication/v1/autologin returnUrl=${evil} -> redirectUrl`, ap.json?.redirectUrl);
      // Onboarding form: back -> Location.
      const ob = await f.req('POST', '/onboarding/form/app', { form: { _xsrf: f.xsrf, kind: 'app', back: evil }, keep: true });
      tried++;
      check(`POST /onboarding/form/app back=${evil} -> Location`, ob.headers.get('location'));
      // The sign-in page must not link or refresh to the target.
      const pg = await new Visitor('pg').req('GET', `/gr/authentication?returnurl=${encodeURIComponent(evil)}&ReturnUrl=${encodeURIComponent(evil)}`);
      tried++;
      for (const m of pg.text.matchAll(/(?:href|action|content)="([^"]*)"/g)) {
        const val = m[1].replace(/&amp;/g, '&').replace(/&#x2F;/gi, '/').replace(/&#47;/g, '/');
        const url = val.replace(/^\d+;\s*url=/i, '');
        if (/evil\.example|^javascript:/i.test(url)) check(`GET /gr/authentication?returnurl=${evil} -> page link`, url);
      }
      // A members-only page sends visitors to sign in with a local return URL.
      const mo = await new Visitor('mo').req('GET', `/cart?x=${encodeURIComponent(evil)}`);
      tried++;
      check(`GET /cart (visitor) -> Location`, mo.headers.get('location'));
      // Travel search redirect: the URL it answers.
      const tr = await new Visitor('tr').req('GET', `/api/travel/v1/redirect?destinationId=${encodeURIComponent(evil)}&destinationText=${encodeURIComponent(evil)}&siteId=${SITE}`);
      tried++;
      if (tr.json?.url !== undefined) check(`GET /api/travel/v1/redirect destination=${evil} -> url`, tr.json.url);
    }
    // Controls: a local target is followed, so the parameters above are the ones read.
    const local = '/gr/aboutus';
    const cv = new Visitor('control');
    const cj = await cv.login(MEMBER_A, { returnUrl: local });
    if (cj.json?.redirectUrl !== local) found.push(`control: JSON sign-in returnUrl=${local} -> ${cj.json?.redirectUrl}`);
    const cf = new Visitor('controlform');
    await cf.anonToken();
    const cfr = await cf.req('POST', '/gr/authentication/form', {
      form: { _xsrf: cf.xsrf, step: 'password', email: MEMBER_A.email, password: MEMBER_A.password, returnurl: local },
    });
    if (cfr.headers.get('location') !== local) found.push(`control: form sign-in returnurl=${local} -> ${cfr.headers.get('location')}`);
    const cob = await cf.req('POST', '/onboarding/form/app', { form: { _xsrf: cf.xsrf, kind: 'app', back: local }, keep: true });
    if (cob.headers.get('location') !== local) found.push(`control: onboarding back=${local} -> ${cob.headers.get('location')}`);
    const cal = await new Visitor('al').req('GET', `/gr/authentication/autologin?cypher=nope&returnurl=${encodeURIComponent(local)}`);
    const calIn = cal.headers.get('location') && new URL(cal.headers.get('location'), BASE).searchParams.get('returnurl');
    // (Only when the failed link still redirects: a confirmation page instead is fine.)
    if (cal.status >= 300 && cal.status < 400 && calIn !== local) found.push(`control: autologin returnurl=${local} -> ${cal.headers.get('location')}`);
    return { problems: found.slice(0, 8).concat(found.length > 8 ? [`... ${found.length - 8} more`] : []), note: `${tried} requests over 9 redirect-taking inputs, local-target controls followed` };
  });
}

// ------------------------------------------------------------------ object-level access

async function setupMemberA() {
  // Checkout needs the current terms accepted (popin 5, version 2 of MODAL_POPINS).
  await A.req('POST', '/api/popins/v1/5/2', { json: { accepted: true } });
  await B.req('POST', '/api/popins/v1/5/2', { json: { accepted: true } });
  // Carts left frozen by an earlier run are opened again.
  for (const v of [A, B]) await v.req('POST', '/api/cartproxy/orderpiper/cart/v3/cancel-order');
  const addr = await A.req('POST', '/api/address/v1', {
    json: { firstName: 'Camille', lastName: 'Asvs', details: '7 rue Secrete', extras: 'code 1234', zipCode: '75003', city: 'Paris', country: 'FR', phone: '0612345678', isFavorite: false },
  });
  const list = await A.req('GET', '/api/address/v1');
  owned.address = list.json?.addresses?.find((a) => a.details === '7 rue Secrete')?.id;
  if (!owned.address) console.log(`note: A's address not created (HTTP ${addr.status} ${addr.text.slice(0, 100)})`);
  // A sandbox order with a saved card.
  const opt = await A.req('GET', '/api/catalog/v1/sale/1001/item/100101/options');
  const optionId = opt.json?.options?.find((o) => o.stock > 1)?.id;
  if (optionId) {
    await A.req('POST', '/api/cartproxy/v1/item', { json: { product_id: optionId, quantity: 1, cart_type: 'fs' } });
    const frozen = await A.req('GET', '/api/cartproxy/orderpiper/cart/v3');
    if (frozen.json?.cartHash) {
      const pay = await A.req('POST', '/api/cartproxy/orderpiper/cart/v3/pay', {
        json: { cartHash: frozen.json.cartHash, generateDeeplinkReturnUrl: false, card: SANDBOX_CARD, saveCard: true },
      });
      owned.order = pay.json?.orderId;
      if (!owned.order) console.log(`note: A's order not paid (HTTP ${pay.status} ${pay.text.slice(0, 100)})`);
    } else console.log(`note: A's cart not frozen (HTTP ${frozen.status} ${frozen.text.slice(0, 100)})`);
    owned.optionId = optionId;
  }
  await A.req('POST', '/api/postsales/v1/wallet/bankdetails', {
    json: { iban: 'FR1420041010050500013M02606', bic: 'PSSTFRPPPAR', ownerName: 'Camille Asvs', confirmation: true, currentPassword: MEMBER_A.password },
  });
  const wallet = await A.req('GET', '/api/postsales/v1/wallet');
  owned.iban = wallet.json?.iban?.id;
  owned.card = wallet.json?.paymentMethods?.[0]?.guid;
  // A recent search.
  await A.req('GET', `/api/catalog/v8/search/items?q=asvssecret&siteId=${SITE}`);
  const recent = await A.req('GET', '/api/catalog/v1/search/recent');
  owned.recent = recent.json?.recentQueries?.find((q) => q.query === 'asvssecret')?.id;
  // A travel booking: the first offer's first package, departure city, duration and free day.
  try {
    const offers = await A.req('GET', `/api/travel/v1/offers?siteId=${SITE}`);
    const offer = offers.json?.offers?.[0];
    const prod = offer && (await A.req('GET', `/api/travel/v1/campaigns/${offer.campaignId}/products/${offer.id}`));
    const pkg = prod?.json?.packages?.[0];
    const city = pkg?.configurator?.departureCities?.[0];
    const duration = city?.durations?.[0];
    const dates = duration && (await A.req('GET', `/api/travel/v1/durations/${duration.id}/dates`));
    // Free days in order; earlier runs may have taken the places of the first ones.
    const days = dates?.json ? Object.entries(dates.json).filter(([, d]) => d.isOutOfStock === false).map(([k]) => k) : [];
    if (days.length) {
      const adult = { firstName: 'Camille', lastName: 'Asvs', birthday: '1980-01-01' };
      let r;
      for (const day of days.slice(0, 12)) {
        owned.travelRequest = {
          campaignId: offer.campaignId, productId: offer.id, packageId: pkg.id, departureCityId: city.id,
          days: duration.day, nights: duration.night, checkin: day,
          participants: [{ type: 'adults' }, { type: 'adults' }], travellers: [adult, adult],
          // One of A's saved addresses (issue #11: no typed address any more).
          addressId: owned.address,
        };
        r = await A.req('POST', '/api/travel/v1/checkout', { json: owned.travelRequest });
        owned.booking = r.json?.id ?? r.json?.bookingId ?? r.json?.booking?.id;
        if (owned.booking != null || r.json?.error_code !== 'sold_out') break;
      }
      if (owned.booking == null) console.log(`note: A's travel booking not made (HTTP ${r.status} ${r.text.slice(0, 120)})`);
    } else console.log('note: no travel departure found for a booking of A');
  } catch (e) {
    console.log(`note: A's travel booking not made (${e.message})`);
  }
  // A's help ticket and automatic-answer evaluation (issue #14); notifications and rose-deal
  // requests A may not have: a made-up id is tried then (B must get 404 all the same).
  const ticket = await A.req('POST', '/api/postsale/v1/help/contact', {
    json: { contactFrom: 'Front', subjectId: 'other', subjectTitle: 'Question', body: 'Une question de A sur sa commande.', orderId: owned.order },
  });
  owned.ticket = ticket.json?.ticketId;
  if (owned.ticket == null) console.log(`note: A's ticket not made (HTTP ${ticket.status} ${ticket.text.slice(0, 100)})`);
  const answer = await A.req('POST', '/api/postsale/v1/help/answer', {
    json: { contactFrom: 'Front', subjectId: 'order.delivery', subjectTitle: 'Livraison', orderId: owned.order, body: 'Quels sont les délais de livraison de ma commande ?' },
  });
  owned.evaluation = answer.json?.answer?.evaluationId;
  if (owned.evaluation == null) console.log(`note: A's answer evaluation not made (HTTP ${answer.status} ${answer.text.slice(0, 100)})`);
  // A personal voucher of A, selected, and one in A's (open) cart.
  const vouchers = await A.req('GET', '/api/postsales/v1/vouchers');
  const personal = vouchers.json?.vouchers?.find((x) => /^MERCI/.test(x.code)) || vouchers.json?.vouchers?.[0];
  owned.voucher = personal?.voucherId;
  owned.participation = personal?.participationId;
  owned.voucherCode = personal?.code;
  if (optionId) {
    await A.req('POST', '/api/cartproxy/v1/item', { json: { product_id: optionId, quantity: 1, cart_type: 'fs' } });
    const inCart = async () => {
      const cart = await A.req('GET', '/api/cartproxy/v1');
      return (cart.json?.vouchers || []).map((x) => x.voucherId ?? x.id).find((x) => x != null);
    };
    owned.cartVoucher = await inCart();
    // Any voucher or promotion of A that its cart takes (earlier runs may have spent some).
    const codes = [...(vouchers.json?.vouchers || []), ...(vouchers.json?.promotions || [])].map((x) => x.code);
    for (const code of codes) {
      if (owned.cartVoucher != null) break;
      await A.req('POST', '/api/cartproxy/v1/vouchers', { json: { code } });
      owned.cartVoucher = await inCart();
    }
  }
}

/** A's view of its objects, to compare before and after B's attempts. */
async function snapshotA() {
  const get = async (p) => (await A.req('GET', p)).text;
  return {
    address: await get(owned.address ? `/api/address/v1/${owned.address}` : '/api/address/v1'),
    addresses: await get('/api/address/v1'),
    order: await get(owned.order ? `/api/orders/v1/orders/${owned.order}` : '/api/orders/v1/orders'),
    wallet: await get('/api/postsales/v1/wallet'),
    recent: await get('/api/catalog/v1/search/recent'),
    cart: (await A.req('GET', '/api/cartproxy/v1')).json?.vouchers,
    vouchers: await get('/api/postsales/v1/vouchers'),
    booking: owned.booking != null ? await get(`/api/travel/v1/bookings/${owned.booking}`) : null,
    // Issue #15: A's brand alerts (the brands place's followed flags) and sponsorship.
    brands: await get('/api/catalog/v1/brands'),
    sponsorship: await get('/api/members/v1/sponsorship'),
  };
}

/** Secrets of A that must never appear in B's answers. */
const leaks = (text) => ['7 rue Secrete', 'asvssecret', 'Camille Asvs', 'M02606', '2606"', 'Camille'].filter((s) => text.includes(s));

async function checkIdor() {
  await setupMemberA();
  const missing = ['address', 'order', 'iban', 'card', 'recent', 'voucher', 'cartVoucher', 'booking'].filter((k) => owned[k] == null);
  await item(`access control: member A's objects made (${Object.entries(owned).filter(([, v]) => v != null).map(([k]) => k).join(', ')})`, async () => {
    const p = missing.length ? [`could not make A's ${missing.join(', ')}: their routes are tried with guessed ids only`] : [];
    // Control: A reads its own objects by id (so B's 404s below are about ownership).
    for (const path of [
      owned.address != null && `/api/address/v1/${owned.address}`,
      owned.order != null && `/api/orders/v1/orders/${owned.order}`,
      owned.booking != null && `/api/travel/v1/bookings/${owned.booking}`,
    ].filter(Boolean)) {
      const r = await A.req('GET', path);
      if (r.status !== 200) p.push(`control: A's own GET ${path} answered HTTP ${r.status}`);
    }
    return p;
  });

  // The member routes with an id in their path, from the document, and A's id for each.
  const idFor = {
    '/api/address/v1/{id}': { id: owned.address },
    '/api/orders/v1/orders/{id}': { id: owned.order },
    '/api/postsales/v1/wallet/bankdetails/{guid}': { guid: owned.iban },
    '/api/postsales/v1/wallet/paymentmethods/{guid}': { guid: owned.card },
    '/api/catalog/v1/search/recent/{id}': { id: owned.recent },
    '/api/cartproxy/v1/vouchers/{voucherId}': { voucherId: owned.cartVoucher },
    '/api/travel/v1/bookings/{id}': { id: owned.booking },
    '/api/travel/v1/bookings/{id}/cancel': { id: owned.booking },
    '/api/travel/v1/bookings/{id}/pay': { id: owned.booking },
    '/api/postsale/v1/orders/{orderId}/invoice': { orderId: owned.order },
    '/api/postsale/v1/orders/{orderId}/returns': { orderId: owned.order },
    '/api/postsale/v1/marketplace/orders/{orderId}/contact': { orderId: owned.order },
    '/api/postsale/v1/marketplace/orders/{orderId}/return': { orderId: owned.order },
    '/api/postsale/v1/help/tickets/{id}': { id: owned.ticket },
    '/api/postsale/v1/help/tickets/{id}/messages': { id: owned.ticket },
    '/api/postsale/v1/help/tickets/{id}/read': { id: owned.ticket },
    '/api/postsale/v1/help/answer/{evaluationId}': { evaluationId: owned.evaluation ?? 'ev-0123456789abcdef' },
    '/api/postsale/v1/notifications/{id}/read': { id: owned.notification ?? 987654321 },
    // A's ticket above has no file: an id no member owns still must answer B 404.
    '/api/postsale/v1/help/attachments/{id}': { id: owned.attachment ?? 987654321 },
    // A rose-deal basket is an order of A's (its id); the rmi request id is made up.
    '/api/rosedeals/v1/orders/{basketId}': { basketId: owned.order },
    '/api/rosedeals/v1/orders/{basketId}/refund': { basketId: owned.order },
    '/api/rosedeals/v1/orders/{basketId}/retry': { basketId: owned.order },
    '/api/rosedeals/v1/rmi/{requestId}': { requestId: owned.rmi ?? '0123456789abcdef0123456789abcdef' },
  };
  const address = JSON.stringify({ firstName: 'Bea', lastName: 'Asvs', details: '1 rue B', zipCode: '75001', city: 'Paris', country: 'FR' });
  const bodyFor = {
    '/api/postsale/v1/help/answer/{evaluationId}': { json: { satisfaction: 'bad' } },
    '/api/postsale/v1/help/tickets/{id}/messages': { json: { body: 'Bonjour, ma question.' } },
    '/api/rosedeals/v1/orders/{basketId}/refund': {
      // B proves it is B (review N1): what is refused is the basket not being B's.
      multipart: { address, content: 'Remboursement', iban: 'FR7630006000011234567890189', isSuspended: 'false', storeIban: 'false', currentPassword: MEMBER_B.password },
    },
    '/api/rosedeals/v1/orders/{basketId}/retry': { multipart: { address, content: 'Code refusé', vouchers: '["RD-AAAA-BBBB-CCCC"]' } },
    '/api/rosedeals/v1/rmi/{requestId}': {
      multipart: { attachments: new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }) },
    },
  };
  // Path ids that name no member's object (public catalog, the member's own answers keyed by
  // a catalog id, or public by design in the review). Social sign-in's `{provider}` names a
  // provider (google, facebook, apple): those calls act on the session's own member. The
  // A/B variations call's `{memberId}` only picks a bucket (spec 000 §7: no credentials): it
  // reads and writes nothing of that member.
  const notOwned = /\/catalog\/v[0-9]+\/(sale|brands)\/|\/content\/|\/travel\/v1\/(campaigns|durations)\/|\/members\/\{email\}|\/waiting-line\/|\/popins\/v1\/|\/brandalerts\/|\/features|\/thirdparty\/\{provider\}|\/abtesting\/v1\//;
  // Issue #15: A follows a brand; B's unfollow through the brands place must not touch it.
  owned.brand = (await A.req('GET', '/api/catalog/v1/brands')).json?.[0]?.id;
  if (owned.brand != null) await A.req('PUT', `/api/postsales/v1/brandalerts/${owned.brand}`);
  const before = await snapshotA();
  const routes = operations().filter((o) => o.path.includes('{') && !notOwned.test(o.path));
  const unknown = routes.filter((o) => !idFor[o.path]);
  for (const o of routes.filter((x) => idFor[x.path])) {
    const path = fillPath(o.path, idFor[o.path]);
    await item(`access control: B on A's id: ${o.method} ${o.path}`, async () => {
      const json = o.op.requestBody ? { cartHash: 'x', generateDeeplinkReturnUrl: false, card: SANDBOX_CARD } : undefined;
      // A body the call accepts, so that what answers is the ownership check, not the parser.
      const r = await B.req(o.method, path, bodyFor[o.path] ?? { json });
      const p = [];
      const code = r.json?.error_code;
      // 403/404; or the documented "unknown" answer of an id that is not in B's own list
      // (the cart's voucher_unknown): no access and the same answer as for any other id.
      const documented = o.op.responses?.[String(r.status)] && r.status >= 400 && r.status < 500 && ![401, 429].includes(r.status);
      const unknownAnswer = documented && /unknown|not_found/.test(code || '');
      if (![403, 404].includes(r.status) && !unknownAnswer)
        p.push(`${o.method} ${path}: HTTP ${r.status}${code ? ` ${code}` : ''} (want 403 or 404)`);
      const l = leaks(r.text);
      if (l.length) p.push(`the answer shows A's data (${l.join(', ')})`);
      const ids = Object.values(idFor[o.path]);
      return { problems: p, note: `HTTP ${r.status}${code ? ` ${code}` : ''}${ids.some((v) => v == null) ? '; A has no such object: id guessed' : ''}` };
    });
  }
  await item('access control: every member route with an id in its path is tried', () =>
    unknown.map((o) => `${o.method} ${o.path}: no id of A known (teach scripts/asvs-check.mjs)`));

  // Ids in bodies and in the HTML forms.
  const bodyTries = [
    ['PUT /api/address/v1 {id: A\'s}', () => B.req('PUT', '/api/address/v1', { json: { id: owned.address, firstName: 'Louis', lastName: 'Pirate', details: '1 rue Volee', extras: '', zipCode: '75001', city: 'Paris', country: 'FR', phone: '0612345678', isFavorite: true } })],
    ['POST /api/address/v1 {id: A\'s}', () => B.req('POST', '/api/address/v1', { json: { id: owned.address, firstName: 'Louis', lastName: 'Pirate', details: '1 rue Volee', extras: '', zipCode: '75001', city: 'Paris', country: 'FR', phone: '0612345678', isFavorite: true } })],
    ['POST /api/cartproxy/v1/item {order_to_reopen: A\'s order}', () => B.req('POST', '/api/cartproxy/v1/item', { json: { product_id: owned.optionId, quantity: 1, cart_type: 'fs', order_to_reopen: owned.order } })],
    ['POST /api/postsales/v1/vouchers/selection {A\'s personal voucher}', () => B.req('POST', '/api/postsales/v1/vouchers/selection', { json: { voucherId: owned.voucher, participationId: owned.participation } })],
    ['POST /api/cartproxy/v1/vouchers {A\'s personal code}', () => B.req('POST', '/api/cartproxy/v1/vouchers', { json: { code: owned.voucherCode } })],
    ['POST /postsales/myaccount/addresses/form/delete with A\'s', () => B.req('POST', '/postsales/myaccount/addresses/form/delete', { form: { _xsrf: B.xsrf, id: String(owned.address) } })],
    ['POST /postsales/myaccount/addresses/form/save over A\'s', () => B.req('POST', '/postsales/myaccount/addresses/form/save', { form: { _xsrf: B.xsrf, id: String(owned.address), firstName: 'Louis', lastName: 'Pirate', details: '1 rue Volee', zipCode: '75001', city: 'Paris', country: 'FR', phone: '0612345678' } })],
    ['POST /postsales/myaccount/wallet/form/delete_card with A\'s card', () => B.req('POST', '/postsales/myaccount/wallet/form/delete_card', { form: { _xsrf: B.xsrf, guid: String(owned.card) } })],
    ['POST /postsales/myaccount/wallet/form/delete_iban with A\'s bank details', () => B.req('POST', '/postsales/myaccount/wallet/form/delete_iban', { form: { _xsrf: B.xsrf, guid: String(owned.iban) } })],
    ['POST /find/recent/{A\'s}/delete', () => B.req('POST', `/find/recent/${owned.recent}/delete`, { form: { _xsrf: B.xsrf } })],
    ['POST /vouchers-promotions/form/toggle with A\'s voucher', () => B.req('POST', '/vouchers-promotions/form/toggle', { form: { _xsrf: B.xsrf, voucherId: String(owned.voucher), participationId: String(owned.participation ?? '') } })],
    // The no-script forms of the order detail and of the rose deals (issue #14).
    ['POST /postsales/orders/{A\'s}/aftersale/reopen', () => B.req('POST', `/postsales/orders/${owned.order}/aftersale/reopen`, { form: { _xsrf: B.xsrf } })],
    ['POST /postsales/orders/{A\'s}/aftersale/return', () => B.req('POST', `/postsales/orders/${owned.order}/aftersale/return`, { form: { _xsrf: B.xsrf, reasonId: 'changed_mind', [`qty_${owned.optionId}`]: '1' } })],
    ['POST /rosedeals/forms/refund/{A\'s}', () => B.req('POST', `/rosedeals/forms/refund/${owned.order}`, { multipart: { _xsrf: B.xsrf, firstName: 'Bea', lastName: 'Asvs', city: 'Paris', country: 'FR', iban: 'FR7630006000011234567890189', content: 'Remboursement', currentPassword: MEMBER_B.password } })],
    ['POST /brandsplace/form/unfollow the brand A follows', () => B.req('POST', '/brandsplace/form/unfollow', { form: { _xsrf: B.xsrf, brandId: String(owned.brand ?? 0) } })],
    ['POST /rosedeals/forms/retry/{A\'s}', () => B.req('POST', `/rosedeals/forms/retry/${owned.order}`, { multipart: { _xsrf: B.xsrf, vouchers: 'RD-AAAA-BBBB-CCCC' } })],
    // The message centre's "mark as read" form (ticket or notification of A's).
    ['POST /my-notifications/read {ticketId: A\'s}', () => B.req('POST', '/my-notifications/read', { form: { _xsrf: B.xsrf, ticketId: String(owned.ticket ?? 0) } })],
    ['POST /my-notifications/read {notificationId: A\'s}', () => B.req('POST', '/my-notifications/read', { form: { _xsrf: B.xsrf, notificationId: String(owned.notification ?? 987654321) } })],
  ];
  // B books a trip with A's address: refused, nothing held.
  if (owned.travelRequest) {
    bodyTries.push(['POST /api/travel/v1/checkout {addressId: A\'s}', async () => {
      const r = await B.req('POST', '/api/travel/v1/checkout', { json: owned.travelRequest });
      return r.status < 400 ? { ...r, note: `B booked with A's address (HTTP ${r.status})` } : r;
    }]);
  }
  // B pays its own frozen cart with A's address: the order must not carry it.
  bodyTries.push(['POST .../cart/v3/pay {addressId: A\'s} on B\'s cart', async () => {
    await B.req('POST', '/api/cartproxy/v1/item', { json: { product_id: owned.optionId, quantity: 1, cart_type: 'fs' } });
    const frozen = await B.req('GET', '/api/cartproxy/orderpiper/cart/v3');
    if (!frozen.json?.cartHash) return { status: 0, text: '', note: `B's cart not frozen (HTTP ${frozen.status})` };
    const r = await B.req('POST', '/api/cartproxy/orderpiper/cart/v3/pay', { json: { cartHash: frozen.json.cartHash, addressId: owned.address, generateDeeplinkReturnUrl: false, card: SANDBOX_CARD } });
    await B.req('POST', '/api/cartproxy/orderpiper/cart/v3/cancel-order');
    return r;
  }]);
  for (const [label, run] of bodyTries) {
    await item(`access control: B with A's id in the body: ${label}`, async () => {
      const r = await run();
      const p = [];
      if (r.note) p.push(r.note);
      const l = leaks(r.text || '');
      if (l.length) p.push(`HTTP ${r.status}: the answer shows A's data (${l.join(', ')})`);
      const code = r.json?.error_code;
      const where = r.headers?.get('location');
      return { problems: p, note: `HTTP ${r.status}${code ? ` ${code}` : ''}${where ? ` to ${where}` : ''}` };
    });
  }
  await item('access control: A\'s objects unchanged after all of B\'s attempts', async () => {
    const after = await snapshotA();
    const p = [];
    for (const k of Object.keys(before)) {
      const x = JSON.stringify(before[k]);
      const y = JSON.stringify(after[k]);
      if (x !== y) p.push(`A's ${k} changed: ${x.slice(0, 120)} -> ${y.slice(0, 120)}`);
    }
    return p;
  });
}

// ------------------------------------------------------------------ main

const started = Date.now();
try {
  const health = await fetch(`${BASE}/health`);
  if (health.status !== 200) throw new Error(`GET /health: HTTP ${health.status}`);
  for (const p of ['/api/openapi.json', '/api-docs/openapi.json']) {
    const r = await fetch(BASE + p);
    if (r.status === 200) {
      OPENAPI = await r.json();
      break;
    }
  }
  if (!OPENAPI) throw new Error('no OpenAPI document at /api/openapi.json');
} catch (e) {
  console.log(`ERROR cannot use the shop at ${BASE}: ${e.message}`);
  process.exit(2);
}
console.log(`asvs-check: ${BASE} (${SECURE ? 'https origin' : 'http origin'}), ${operations().length} documented operations`);

await signIn(A, MEMBER_A);
await signIn(B, MEMBER_B);
await checkCookies();
await checkHeaders();
await checkNoStore();
await checkCsrf();
await checkOpenRedirects();
// Fresh sessions: a member keeps a bounded number of sessions (review L11), and the checks
// above signed member A in many times, which may have ended A's first session.
await signIn(A, MEMBER_A);
await signIn(B, MEMBER_B);
await checkIdor();
await checkSafeMethods();
await checkInputHygiene();
await checkSessions();
await checkLockout();
await checkReviewTwo();
await checkBackoffice();

const failed = results.filter((r) => !r.ok).length;
console.log(`\nasvs-check: ${results.length - failed} passed, ${failed} failed of ${results.length} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);

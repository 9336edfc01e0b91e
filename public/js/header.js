// The header's page script (app/src/shell/header.rs). The header is server HTML that works
// without it (the burger is a link to /menu, the account menu a <details>); this opens the
// lateral menu in place, the legal side panel, closes on Escape, and keeps the header cache
// in localStorage (spec 000 §9): `GET /api/content/v1/header` only when the cache is stale;
// its data fills the categories' flyouts. A failed load shows the status text of the
// first non-OK response. `isStale` is the twin of app/src/shell/rules.rs `is_stale`, both
// checked against app/tests/vectors/header_cache.json.
const MAX_AGE = 15 * 60 * 1000;
const HOURS = [7, 9, 12, 19];
const DAY = 864e5;
const HOUR = 36e5;
const KEY = 'rosace.header';

export function isStale(saved, now) {
  const age = now.date - saved.date;
  if (!(age >= 0 && age < MAX_AGE)) return true;
  if (saved.siteId !== now.siteId || (saved.memberId ?? null) !== (now.memberId ?? null) || saved.path !== now.path) return true;
  const day = Math.floor(now.date / DAY) * DAY;
  return HOURS.some((h) => [day + h * HOUR, day - DAY + h * HOUR].some((e) => saved.date < e && e <= now.date));
}

const doc = typeof document === 'undefined' ? null : document;
if (doc && !window.__rosaceHeader) {
  window.__rosaceHeader = true;
  const header = () => doc.querySelector('[data-header]');
  const menu = () => doc.getElementById('lateral-menu');
  const burger = () => doc.querySelector('.header__burger');
  const desktop = () => matchMedia('(min-width: 1025px)').matches;
  const phone = () => !matchMedia('(min-width: 641px)').matches;
  let closing = 0;

  const panel = (open) => {
    const p = doc.getElementById('menu-legal');
    const b = doc.querySelector('[aria-controls="menu-legal"]');
    if (!p || !b) return;
    p.hidden = !open;
    b.setAttribute('aria-expanded', String(open));
    (open ? p.querySelector('a') : b).focus();
  };
  const setMenu = (open, focusBurger) => {
    const m = menu();
    const b = burger();
    if (!m || !b) return;
    clearTimeout(closing);
    b.setAttribute('aria-expanded', String(open));
    if (open) {
      m.classList.add('lateral-menu--open');
      if (!desktop()) doc.body.classList.add('menu-open');
      const first = m.querySelector('a, button');
      if (first) first.focus();
    } else if (m.classList.contains('lateral-menu--open')) {
      m.classList.remove('lateral-menu--open');
      panel(false);
      // Body scrolling comes back once the 200 ms (150 ms on phones) transition ended.
      closing = setTimeout(() => doc.body.classList.remove('menu-open'), phone() ? 150 : 200);
      if (focusBurger) b.focus();
    }
  };

  doc.addEventListener('click', (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    if (t.closest('.header__burger')) {
      ev.preventDefault();
      setMenu(burger().getAttribute('aria-expanded') !== 'true', true);
      return;
    }
    if (t.closest('[aria-controls="menu-legal"]')) return panel(true);
    if (t.closest('[data-close-panel]')) return panel(false);
    const link = t.closest('a');
    if (link && link.dataset.clearsSession) localStorage.removeItem(KEY);
    if (link && menu() && menu().contains(link)) setMenu(false, false);
    else if (!t.closest('#lateral-menu')) setMenu(false, false);
    const account = doc.querySelector('.account-menu[open]');
    if (account && !account.contains(t)) account.open = false;
  });
  doc.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Escape') return;
    const p = doc.getElementById('menu-legal');
    if (p && !p.hidden) return panel(false);
    const account = doc.querySelector('.account-menu[open]');
    if (account) {
      account.open = false;
      account.querySelector('summary').focus();
      return;
    }
    if (burger() && burger().getAttribute('aria-expanded') === 'true') setMenu(false, true);
  });

  const el = (tag, cls, text) => {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const fill = (data) => {
    (data.categories || []).forEach((c, i) => {
      const box = doc.querySelector(`[data-flyout="${i}"]`);
      if (!box) return;
      box.replaceChildren();
      for (const list of [c.items, c.sales]) {
        const ul = el('ul');
        for (const it of list || []) {
          const li = el('li');
          const a = el('a', null, it.label || it.name);
          a.href = it.href;
          li.append(a);
          ul.append(li);
        }
        box.append(ul);
      }
    });
  };
  const fail = (text) => {
    const h = header();
    const s = doc.querySelector('[data-testid="header-status"]');
    if (s) s.textContent = `${h.dataset.statusText} (${text})`;
  };
  window.__rosaceHeaderCalls = window.__rosaceHeaderCalls || 0;
  const load = async () => {
    const h = header();
    if (!h) return;
    const now = {
      siteId: Number(h.dataset.site),
      memberId: h.dataset.member ? Number(h.dataset.member) : null,
      path: location.pathname,
      date: Date.now() - new Date().getTimezoneOffset() * 6e4,
    };
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(KEY));
    } catch (_) {
      saved = null;
    }
    if (saved && saved.data && !isStale(saved, now)) return fill(saved.data);
    const headers = { 'x-vp-siteid': String(now.siteId), 'x-vp-device': 'web', 'X-VP-Origin': 'web' };
    if (now.memberId !== null) headers['x-vp-memberid'] = String(now.memberId);
    window.__rosaceHeaderCalls += 1;
    try {
      const resp = await fetch(`/api/content/v1/header?siteId=${now.siteId}`, { headers, credentials: 'same-origin' });
      if (!resp.ok) return fail(resp.statusText || String(resp.status));
      const data = await resp.json();
      localStorage.setItem(KEY, JSON.stringify({ ...now, data }));
      fill(data);
    } catch (e) {
      fail(e.message);
    }
  };
  // Flyouts show their placeholders until the data is there.
  doc.addEventListener('mouseover', (ev) => {
    const cat = ev.target instanceof Element && ev.target.closest('.header__category');
    if (cat) cat.querySelector('.header__flyout').hidden = false;
  });
  doc.addEventListener('mouseout', (ev) => {
    const cat = ev.target instanceof Element && ev.target.closest('.header__category');
    if (cat && !cat.contains(ev.relatedTarget)) cat.querySelector('.header__flyout').hidden = true;
  });
  doc.addEventListener('rosace:navigated', () => {
    doc.body.classList.remove('menu-open');
    load();
  });
  load();
}

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
  let closing = 0;
  // The drawer's close transition, read from the stylesheet (150 ms on phones, 200 ms
  // from 641 px on): body scrolling comes back once it ended.
  const closeDelay = (m) => {
    const d = getComputedStyle(m).transitionDuration.split(',')[0].trim();
    const ms = d.endsWith('ms') ? parseFloat(d) : parseFloat(d) * 1000;
    return Number.isFinite(ms) ? ms : 200;
  };

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
      closing = setTimeout(() => doc.body.classList.remove('menu-open'), closeDelay(m));
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
    const more = t.closest('.header__more');
    // A pointer reaching the button hovered its item first, which opened the flyout: that
    // click keeps it open (it used to close what the user had just seen open).
    if (more && more.dataset.hovered) {
      delete more.dataset.hovered;
      return flyout(more, true);
    }
    if (more) return flyout(more, more.getAttribute('aria-expanded') !== 'true');
    if (!t.closest('.header__flyout')) closeFlyouts(null);
    if (t.closest('[aria-controls="menu-legal"]')) return panel(true);
    if (t.closest('[data-close-panel]')) return panel(false);
    const link = t.closest('a');
    if (link && link.dataset.clearsSession) localStorage.removeItem(KEY);
    if (link && menu() && menu().contains(link)) setMenu(false, false);
    else if (!t.closest('#lateral-menu')) setMenu(false, false);
    // The account menu closes on a click outside it, and on one of its links (a link to
    // a section of the page already shown does not load another page).
    const account = doc.querySelector('.account-menu[open]');
    if (account && (!account.contains(t) || (link && account.contains(link)))) account.open = false;
  });
  doc.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Escape') return;
    const open = doc.querySelector('.header__more[aria-expanded="true"]');
    if (open) {
      flyout(open, false);
      open.focus();
      return;
    }
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

  // Flyouts (header categories, home modules): a disclosure button next to each link,
  // with aria-expanded; Enter or Space (its click) opens and closes it, Escape closes it
  // and gives the focus back, leaving it with Tab closes it. Hovering opens it too.
  const flyout = (button, open) => {
    const box = doc.getElementById(button.getAttribute('aria-controls'));
    if (!box) return;
    if (open) closeFlyouts(button);
    box.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (!open) delete button.dataset.hovered;
  };
  const closeFlyouts = (except) => {
    doc.querySelectorAll('.header__more[aria-expanded="true"]').forEach((b) => {
      if (b !== except) flyout(b, false);
    });
  };
  const owner = (node) => node instanceof Element && node.closest('.header__category, .header__tab-item');
  doc.addEventListener('focusout', (ev) => {
    const item = owner(ev.target);
    if (!item || item.contains(ev.relatedTarget)) return;
    const button = item.querySelector('.header__more');
    if (button && button.getAttribute('aria-expanded') === 'true') flyout(button, false);
  });

  // The transparent header (over a home's dark hero band) is transparent only while the
  // page is at its top; solid once scrolled (and without this script).
  const atTop = () => {
    const h = header();
    if (h && h.classList.contains('header--transparent')) h.classList.toggle('header--top', window.scrollY <= 0);
  };
  window.addEventListener('scroll', atTop, { passive: true });
  atTop();

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
    // The page's previewDate and userparam go to the header call; a previewed page is
    // another cache key than the live one.
    const query = new URLSearchParams(location.search);
    const previewDate = query.get('previewDate') || '';
    const userparam = query.get('userparam') || '';
    const now = {
      siteId: Number(h.dataset.site),
      memberId: h.dataset.member ? Number(h.dataset.member) : null,
      path: previewDate ? `${location.pathname}?previewDate=${previewDate}` : location.pathname,
      date: Date.now() - new Date().getTimezoneOffset() * 6e4,
    };
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(KEY));
    } catch (_) {
      saved = null;
    }
    if (saved && saved.data && !isStale(saved, now)) return fill(saved.data);
    const headers = { 'x-vp-siteid': String(now.siteId), 'x-vp-device': innerWidth < 641 ? '7' : '10', 'X-VP-Origin': 'web' };
    if (now.memberId !== null) headers['x-vp-memberid'] = String(now.memberId);
    window.__rosaceHeaderCalls += 1;
    try {
      const params = new URLSearchParams({ siteId: String(now.siteId) });
      if (previewDate) params.set('previewDate', previewDate);
      if (userparam) params.set('userparam', userparam);
      const resp = await fetch(`/api/content/v1/header?${params}`, { headers, credentials: 'same-origin' });
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
    const item = owner(ev.target);
    const button = item && item.querySelector('.header__more');
    if (button && desktop() && button.getAttribute('aria-expanded') !== 'true') {
      flyout(button, true);
      button.dataset.hovered = 'true';
    }
  });
  doc.addEventListener('mouseout', (ev) => {
    const item = owner(ev.target);
    const button = item && item.querySelector('.header__more');
    if (button && !item.contains(ev.relatedTarget) && !item.contains(doc.activeElement)) flyout(button, false);
  });
  doc.addEventListener('rosace:navigated', () => {
    doc.body.classList.remove('menu-open');
    atTop();
    load();
  });
  load();
}

// The header's glue (app/src/shell/header.rs). The header is server HTML that works without
// it (the burger is a link to /menu, the account menu a <details>); this opens the lateral
// menu in place, the legal side panel and the flyouts, closes them on Escape, and keeps the
// header cache in localStorage (spec 000 §9): `GET /api/content/v1/header` only when the
// cache is stale (header-cache.ts); its data fills the categories' flyouts. A failed load
// shows the status text of the first non-OK response.
import { NAVIGATED } from '../lib/events';
import type { HeaderContent } from '../generated/HeaderContent';
import { isStale, type CacheKey } from './header-cache';

const KEY = 'rosace.header';

interface Saved extends CacheKey {
  data?: HeaderContent;
}

declare global {
  interface Window {
    /** Calls to the header API (the browser tests count them: the cache saves calls). */
    __rosaceHeaderCalls?: number;
  }
}

const header = () => document.querySelector<HTMLElement>('[data-header]');
const menu = () => document.getElementById('lateral-menu');
const burger = () => document.querySelector<HTMLElement>('.header__burger');
const desktop = () => matchMedia('(min-width: 1025px)').matches;
let closing: ReturnType<typeof setTimeout> | undefined;

// The drawer's close transition, read from the stylesheet (150 ms on phones, 200 ms from
// 641 px on): body scrolling comes back once it ended.
function closeDelay(m: Element): number {
  const d = getComputedStyle(m).transitionDuration.split(',')[0]?.trim() ?? '';
  const ms = d.endsWith('ms') ? parseFloat(d) : parseFloat(d) * 1000;
  return Number.isFinite(ms) ? ms : 200;
}

function panel(open: boolean): void {
  const p = document.getElementById('menu-legal');
  const b = document.querySelector<HTMLElement>('[aria-controls="menu-legal"]');
  if (!p || !b) return;
  p.hidden = !open;
  b.setAttribute('aria-expanded', String(open));
  (open ? p.querySelector<HTMLElement>('a') : b)?.focus();
}

function setMenu(open: boolean, focusBurger: boolean): void {
  const m = menu();
  const b = burger();
  if (!m || !b) return;
  clearTimeout(closing);
  b.setAttribute('aria-expanded', String(open));
  if (open) {
    m.classList.add('lateral-menu--open');
    if (!desktop()) document.body.classList.add('menu-open');
    m.querySelector<HTMLElement>('a, button')?.focus();
  } else if (m.classList.contains('lateral-menu--open')) {
    m.classList.remove('lateral-menu--open');
    panel(false);
    closing = setTimeout(() => document.body.classList.remove('menu-open'), closeDelay(m));
    if (focusBurger) b.focus();
  }
}

// Flyouts (header categories, home modules): a disclosure button next to each link, with
// aria-expanded; Enter or Space (its click) opens and closes it, Escape closes it and gives
// the focus back, leaving it with Tab closes it. Hovering opens it too.
function flyout(button: HTMLElement, open: boolean): void {
  const box = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (!box) return;
  if (open) closeFlyouts(button);
  box.hidden = !open;
  button.setAttribute('aria-expanded', String(open));
  if (!open) delete button.dataset.hovered;
}

function closeFlyouts(except: HTMLElement | null): void {
  for (const b of document.querySelectorAll<HTMLElement>('.header__more[aria-expanded="true"]')) {
    if (b !== except) flyout(b, false);
  }
}

const owner = (node: EventTarget | null) =>
  node instanceof Element ? node.closest('.header__category, .header__tab-item') : null;

// The transparent header (over a home's dark hero band) is transparent only while the page
// is at its top; solid once scrolled (and without this script).
function atTop(): void {
  const h = header();
  if (h?.classList.contains('header--transparent')) h.classList.toggle('header--top', window.scrollY <= 0);
}

function fill(data: HeaderContent): void {
  data.categories.forEach((c, i) => {
    const box = document.querySelector(`[data-flyout="${i}"]`);
    if (!box) return;
    box.replaceChildren();
    const items = c.items.map((it) => ({ text: it.label, href: it.href }));
    const sales = c.sales.map((s) => ({ text: s.name, href: s.href }));
    for (const list of [items, sales]) {
      const ul = document.createElement('ul');
      for (const it of list) {
        const li = document.createElement('li');
        const a = document.createElement('a');
        a.textContent = it.text;
        a.href = it.href;
        li.append(a);
        ul.append(li);
      }
      box.append(ul);
    }
  });
}

function fail(text: string): void {
  const status = document.querySelector('[data-testid="header-status"]');
  if (status) status.textContent = `${header()?.dataset.statusText ?? ''} (${text})`;
}

function readSaved(): Saved | null {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? 'null') as Saved | null;
  } catch {
    return null;
  }
}

async function load(): Promise<void> {
  const h = header();
  if (!h) return;
  // The page's previewDate and userparam go to the header call; a previewed page is
  // another cache key than the live one.
  const query = new URLSearchParams(location.search);
  const previewDate = query.get('previewDate') ?? '';
  const userparam = query.get('userparam') ?? '';
  const now: CacheKey = {
    siteId: Number(h.dataset.site),
    memberId: h.dataset.member ? Number(h.dataset.member) : null,
    path: previewDate ? `${location.pathname}?previewDate=${previewDate}` : location.pathname,
    date: Date.now() - new Date().getTimezoneOffset() * 6e4,
  };
  const saved = readSaved();
  if (saved?.data && !isStale(saved, now)) return fill(saved.data);
  const headers: Record<string, string> = {
    'x-vp-siteid': String(now.siteId),
    'x-vp-device': innerWidth < 641 ? '7' : '10',
    'X-VP-Origin': 'web',
  };
  if (now.memberId !== null) headers['x-vp-memberid'] = String(now.memberId);
  window.__rosaceHeaderCalls = (window.__rosaceHeaderCalls ?? 0) + 1;
  try {
    const params = new URLSearchParams({ siteId: String(now.siteId) });
    if (previewDate) params.set('previewDate', previewDate);
    if (userparam) params.set('userparam', userparam);
    const resp = await fetch(`/api/content/v1/header?${params}`, { headers, credentials: 'same-origin' });
    if (!resp.ok) return fail(resp.statusText || String(resp.status));
    const data = (await resp.json()) as HeaderContent;
    localStorage.setItem(KEY, JSON.stringify({ ...now, data }));
    fill(data);
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
}

function onClick(ev: MouseEvent): void {
  const t = ev.target instanceof Element ? ev.target : null;
  if (!t) return;
  if (t.closest('.header__burger')) {
    ev.preventDefault();
    setMenu(burger()?.getAttribute('aria-expanded') !== 'true', true);
    return;
  }
  const more = t.closest<HTMLElement>('.header__more');
  // A pointer reaching the button hovered its item first, which opened the flyout: that
  // click keeps it open (it used to close what the user had just seen open).
  if (more?.dataset.hovered) {
    delete more.dataset.hovered;
    return flyout(more, true);
  }
  if (more) return flyout(more, more.getAttribute('aria-expanded') !== 'true');
  if (!t.closest('.header__flyout')) closeFlyouts(null);
  if (t.closest('[aria-controls="menu-legal"]')) return panel(true);
  if (t.closest('[data-close-panel]')) return panel(false);
  const link = t.closest<HTMLAnchorElement>('a');
  if (link?.dataset.clearsSession) localStorage.removeItem(KEY);
  const m = menu();
  if (link && m?.contains(link)) setMenu(false, false);
  else if (!t.closest('#lateral-menu')) setMenu(false, false);
  // The account menu closes on a click outside it, and on one of its links (a link to a
  // section of the page already shown does not load another page).
  const account = document.querySelector<HTMLDetailsElement>('.account-menu[open]');
  if (account && (!account.contains(t) || (link && account.contains(link)))) account.open = false;
}

function onKey(ev: KeyboardEvent): void {
  if (ev.key !== 'Escape') return;
  const open = document.querySelector<HTMLElement>('.header__more[aria-expanded="true"]');
  if (open) {
    flyout(open, false);
    open.focus();
    return;
  }
  const p = document.getElementById('menu-legal');
  if (p && !p.hidden) return panel(false);
  const account = document.querySelector<HTMLDetailsElement>('.account-menu[open]');
  if (account) {
    account.open = false;
    account.querySelector<HTMLElement>('summary')?.focus();
    return;
  }
  if (burger()?.getAttribute('aria-expanded') === 'true') setMenu(false, true);
}

export function start(): void {
  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKey);
  document.addEventListener('focusout', (ev) => {
    const item = owner(ev.target);
    if (!item || item.contains(ev.relatedTarget as Node | null)) return;
    const button = item.querySelector<HTMLElement>('.header__more');
    if (button?.getAttribute('aria-expanded') === 'true') flyout(button, false);
  });
  window.addEventListener('scroll', atTop, { passive: true });
  // Flyouts show their placeholders until the data is there.
  document.addEventListener('mouseover', (ev) => {
    const item = owner(ev.target);
    const button = item?.querySelector<HTMLElement>('.header__more');
    if (button && desktop() && button.getAttribute('aria-expanded') !== 'true') {
      flyout(button, true);
      button.dataset.hovered = 'true';
    }
  });
  document.addEventListener('mouseout', (ev) => {
    const item = owner(ev.target);
    const button = item?.querySelector<HTMLElement>('.header__more');
    if (button && item && !item.contains(ev.relatedTarget as Node | null) && !item.contains(document.activeElement)) {
      flyout(button, false);
    }
  });
  document.addEventListener(NAVIGATED, () => {
    document.body.classList.remove('menu-open');
    atTop();
    void load();
  });
  window.__rosaceHeaderCalls ??= 0;
  atTop();
  void load();
}

// Travel offer lists (catalogs, search results): the glue of the list, the map and the
// phone filter drawer. It needs none of our Rust rules; as WASM islands its code and texts
// would sit in the main module every page loads (wasm-split keeps each island's static data
// there). The server HTML works without it: "more" is a link, the drawer a <details>, the
// map draws from its attributes.
// Self-contained (no import): a module of its own would be one more request on these pages.

const GRID = 'offers-grid';
const MAP = 'offers-map';
const DRAWER = 'trv-filters';
const HIGHLIGHTED = 'trv-card--highlighted';
const byId = (id: string) => document.getElementById(id);

/** The offer card an event happened in. */
function cardId(ev: Event): string | null {
  const card = ev.target instanceof Element ? ev.target.closest(`#${GRID} [data-offer-id]`) : null;
  return card ? card.getAttribute('data-offer-id') : null;
}

// Hovering or focusing a card highlights its pin; the map's pin marks its card.
function highlightPin(id: string | null): void {
  const map = byId(MAP);
  if (!map || map.getAttribute('highlighted') === id) return;
  if (id) map.setAttribute('highlighted', id);
  else map.removeAttribute('highlighted');
}

function markCard(ev: Event): void {
  for (const el of document.querySelectorAll(`.${HIGHLIGHTED}`)) {
    el.classList.remove(HIGHLIGHTED);
    el.removeAttribute('aria-current');
  }
  const id = (ev as CustomEvent<{ id?: number | string | null }>).detail?.id;
  const card = id != null ? document.querySelector(`#${GRID} [data-offer-id="${Number(id)}"]`) : null;
  if (card) {
    card.classList.add(HIGHLIGHTED);
    card.setAttribute('aria-current', 'true');
  }
}

/** The map shows the pins of every card listed (after "more" added some). */
function repin(): void {
  const map = byId(MAP);
  if (!map) return;
  const pins = [...document.querySelectorAll(`#${GRID} [data-map-offer]`)].map((c) => c.getAttribute('data-map-offer'));
  map.setAttribute('offers', `[${pins.join(',')}]`);
}

// "More": fetch the next page's HTML and append only its cards; their favourite buttons are
// islands, hydrated as the loader does for the first page.
async function more(ev: MouseEvent): Promise<void> {
  const link = ev.target instanceof Element ? ev.target.closest<HTMLAnchorElement>('a[data-more-offers]') : null;
  if (!link || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  ev.preventDefault();
  ev.stopPropagation();
  const box = link.closest<HTMLElement>('.trv-more');
  const grid = byId(GRID);
  if (!box || !grid || link.getAttribute('aria-busy') === 'true') return;
  const label = link.textContent;
  const error = box.querySelector<HTMLElement>('.trv-more__error');
  link.setAttribute('aria-busy', 'true');
  link.setAttribute('aria-disabled', 'true');
  link.textContent = box.dataset.loading ?? label;
  if (error) error.hidden = true;
  const page = Number(link.dataset.page);
  try {
    const resp = await fetch(link.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
    if (!resp.ok) throw new Error(`status ${resp.status}`);
    const doc = new DOMParser().parseFromString(await resp.text(), 'text/html');
    const cards = doc.querySelectorAll(`#${GRID} > li[data-page="${page}"]`);
    for (const card of cards) {
      grid.appendChild(document.adoptNode(card));
      for (const island of card.querySelectorAll<HTMLElement>('leptos-island')) {
        void window.__hydrateIsland?.(island, island.dataset.component);
      }
    }
    repin();
    // The address says how far the list goes (`?page=N` lists pages 1 to N), so a reload, a
    // shared link or coming back shows the same offers.
    const here = new URL(location.href);
    here.searchParams.set('page', String(page + 1));
    history.replaceState(history.state, '', here.pathname + here.search + here.hash);
    const total = Number(box.dataset.total);
    const shown = Math.min(total, cards.length ? grid.children.length : total);
    const count = box.querySelector('[data-testid="offers-shown"]');
    if (count) count.textContent = (box.dataset.template ?? '').replace('{shown}', String(shown)).replace('{total}', String(total));
    if (shown >= total) {
      link.remove();
      return;
    }
    const next = new URL(link.href);
    next.searchParams.set('page', String(page + 2));
    link.href = next.pathname + next.search;
    link.dataset.page = String(page + 1);
  } catch {
    if (error) error.hidden = false;
  }
  link.textContent = label;
  link.removeAttribute('aria-busy');
  link.removeAttribute('aria-disabled');
}

// The phone filter drawer: the cookie remembers it open (spec 001 §9); its text comes from
// the page (travel::rules::drawer_cookie). The close button (hidden without scripts) shuts it.
function remember(open: boolean): void {
  const drawer = byId(DRAWER);
  const cookie = drawer?.dataset[open ? 'cookieOpen' : 'cookieClosed'];
  if (cookie) document.cookie = cookie;
}

function closeDrawer(ev: MouseEvent): void {
  const close = ev.target instanceof Element ? ev.target.closest('[data-drawer-close]') : null;
  const drawer = byId(DRAWER);
  if (!close || !(drawer instanceof HTMLDetailsElement)) return;
  drawer.open = false;
  remember(false);
  drawer.querySelector<HTMLElement>('summary')?.focus();
}

addEventListener('mouseover', (ev) => highlightPin(cardId(ev)));
addEventListener('focusin', (ev) => highlightPin(cardId(ev)));
addEventListener('travel-map-highlight', markCard);
document.addEventListener('click', (ev) => void more(ev), true);
document.addEventListener(
  'toggle',
  (ev) => {
    if (ev.target instanceof HTMLDetailsElement && ev.target.id === DRAWER) remember(ev.target.open);
  },
  true,
);
document.addEventListener('click', closeDrawer);
// The per-page part: now, and after each in-app navigation (the event is typed in
// lib/events.ts).
const showCloseButtons = () => {
  for (const button of document.querySelectorAll<HTMLElement>('[data-drawer-close]')) button.hidden = false;
};
showCloseButtons();
document.addEventListener('rosace:navigated', showCloseButtons);

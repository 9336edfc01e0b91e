// Travel offer lists (catalogs, search results): the DOM glue of the list, the map and the
// phone filter drawer. Plain JS loaded only by these pages: it needs none of our Rust rules,
// and as WASM islands its code and texts would sit in the main module every page loads
// (wasm-split keeps each island's static data there). The server HTML works without it:
// "more" is a link, the drawer a <details>, the map draws from its attributes.
// A classic script: in-app navigation (navigation.js) runs it again on every page that has
// it, so the document-wide listeners are added once and the per-page part runs each time.
(() => {
  const GRID = 'offers-grid';
  const MAP = 'offers-map';
  const DRAWER = 'trv-filters';
  const HIGHLIGHTED = 'trv-card--highlighted';
  const $ = (id) => document.getElementById(id);

  for (const button of document.querySelectorAll('[data-drawer-close]')) button.hidden = false;
  if (window.__rosaceTravelOffers) return;
  window.__rosaceTravelOffers = true;

  // Hovering or focusing a card highlights its pin; the map's pin marks its card.
  function cardId(ev) {
    const card = ev.target instanceof Element && ev.target.closest(`#${GRID} [data-offer-id]`);
    return card ? card.getAttribute('data-offer-id') : null;
  }
  function highlightPin(id) {
    const map = $(MAP);
    if (!map || map.getAttribute('highlighted') === id) return;
    if (id) map.setAttribute('highlighted', id);
    else map.removeAttribute('highlighted');
  }
  addEventListener('mouseover', (ev) => highlightPin(cardId(ev)));
  addEventListener('focusin', (ev) => highlightPin(cardId(ev)));
  addEventListener('travel-map-highlight', (ev) => {
    for (const el of document.querySelectorAll(`.${HIGHLIGHTED}`)) {
      el.classList.remove(HIGHLIGHTED);
      el.removeAttribute('aria-current');
    }
    const id = ev.detail && ev.detail.id;
    const card = id != null && document.querySelector(`#${GRID} [data-offer-id="${Number(id)}"]`);
    if (card) {
      card.classList.add(HIGHLIGHTED);
      card.setAttribute('aria-current', 'true');
    }
  });

  // "More": fetch the next page's HTML and append only its cards; their favourite buttons
  // are islands, hydrated as the loader does for the first page.
  function repin() {
    const map = $(MAP);
    if (!map) return;
    const pins = [...document.querySelectorAll(`#${GRID} [data-map-offer]`)].map((c) => c.getAttribute('data-map-offer'));
    map.setAttribute('offers', `[${pins.join(',')}]`);
  }
  document.addEventListener('click', async (ev) => {
    const link = ev.target instanceof Element && ev.target.closest('a[data-more-offers]');
    if (!link || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    ev.preventDefault();
    ev.stopPropagation();
    const box = link.closest('.trv-more');
    if (link.getAttribute('aria-busy') === 'true') return;
    const label = link.textContent;
    link.setAttribute('aria-busy', 'true');
    link.setAttribute('aria-disabled', 'true');
    link.textContent = box.dataset.loading;
    box.querySelector('.trv-more__error').hidden = true;
    const page = Number(link.dataset.page);
    try {
      const resp = await fetch(link.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
      if (!resp.ok) throw new Error(`status ${resp.status}`);
      const doc = new DOMParser().parseFromString(await resp.text(), 'text/html');
      const cards = doc.querySelectorAll(`#${GRID} > li[data-page="${page}"]`);
      const grid = $(GRID);
      for (const card of cards) {
        grid.appendChild(document.adoptNode(card));
        if (typeof window.__hydrateIsland === 'function') {
          for (const island of card.querySelectorAll('leptos-island')) window.__hydrateIsland(island, island.dataset.component);
        }
      }
      repin();
      // The address says how far the list goes (`?page=N` lists pages 1 to N), so a reload,
      // a shared link or coming back shows the same offers.
      const here = new URL(window.location.href);
      here.searchParams.set('page', String(page + 1));
      window.history.replaceState(window.history.state, '', here.pathname + here.search + here.hash);
      const total = Number(box.dataset.total);
      const shown = Math.min(total, cards.length ? grid.children.length : total);
      box.querySelector('[data-testid="offers-shown"]').textContent = box.dataset.template
        .replace('{shown}', String(shown))
        .replace('{total}', String(total));
      if (shown >= total) {
        link.remove();
        return;
      }
      const next = new URL(link.href);
      next.searchParams.set('page', String(page + 2));
      link.href = next.pathname + next.search;
      link.dataset.page = String(page + 1);
    } catch (e) {
      box.querySelector('.trv-more__error').hidden = false;
    }
    link.textContent = label;
    link.removeAttribute('aria-busy');
    link.removeAttribute('aria-disabled');
  }, true);

  // The phone filter drawer: the cookie remembers it open (spec 001 §9), the close button
  // (hidden without scripts) shuts it.
  // The cookie's text comes from the page (travel::rules::drawer_cookie), written once.
  function remember(open) {
    const drawer = $(DRAWER);
    const cookie = drawer && drawer.dataset[open ? 'cookieOpen' : 'cookieClosed'];
    if (cookie) document.cookie = cookie;
  }
  document.addEventListener('toggle', (ev) => {
    if (ev.target instanceof HTMLDetailsElement && ev.target.id === DRAWER) remember(ev.target.open);
  }, true);
  document.addEventListener('click', (ev) => {
    const close = ev.target instanceof Element && ev.target.closest('[data-drawer-close]');
    const drawer = $(DRAWER);
    if (!close || !drawer) return;
    drawer.open = false;
    remember(false);
    const summary = drawer.querySelector('summary');
    if (summary) summary.focus();
  });
})();

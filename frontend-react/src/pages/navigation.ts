// In-app navigation for an islands page. A same-site link click fetches the next page's
// server HTML, swaps <body> and the page-specific head tags, and hydrates the new page's
// islands with the WASM already loaded, so stores held in WASM memory (cart count,
// favourites) live on. Anything unusual (another origin, a download, rel="external", a
// non-HTML answer, an error, the WASM not loaded yet) falls back to a normal page load,
// which always works.
import { emit, NAVIGATED, ROUTE_ERROR } from '../lib/events';
import { fetchHtml } from '../lib/http';
import { dwellThenLoad } from './near-view';

const HEAD_TAGS =
  'title, meta[name], meta[property], link[rel=canonical], link[rel=alternate], script[type="application/ld+json"]';

let navigation = 0;
let inflight: AbortController | null = null;

export function linkTarget(ev: MouseEvent, here: Location = location): URL | null {
  if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.altKey || ev.ctrlKey || ev.shiftKey) return null;
  const a = ev.composedPath().find((el): el is HTMLAnchorElement => el instanceof HTMLAnchorElement);
  if (!a || !a.href || a.target || a.hasAttribute('download')) return null;
  if ((a.getAttribute('rel') ?? '').split(/\s+/).includes('external')) return null;
  const url = new URL(a.href);
  if (url.origin !== here.origin || url.pathname.startsWith('/api/')) return null;
  // A jump within the page stays with the browser.
  if (url.pathname === here.pathname && url.search === here.search && url.hash) return null;
  return url;
}

function swap(doc: Document): void {
  const html = document.documentElement;
  for (const attr of ['lang', 'class', 'data-ctx', 'data-failed', 'data-navigation']) {
    const value = doc.documentElement.getAttribute(attr);
    if (value === null) html.removeAttribute(attr);
    else html.setAttribute(attr, value);
  }
  document.head.querySelectorAll(HEAD_TAGS).forEach((el) => el.remove());
  doc.head.querySelectorAll(HEAD_TAGS).forEach((el) => document.head.appendChild(document.adoptNode(el)));
  document.body.replaceWith(document.adoptNode(doc.body));
  reviveScripts(document.body);
}

/** Scripts that arrive by parsing do not run: external ones are inserted anew (a module
 * already loaded does not run twice; page modules re-run their per-page part on
 * `rosace:navigated`). */
export function reviveScripts(root: Element): void {
  for (const old of root.querySelectorAll('script[src]')) {
    const script = document.createElement('script');
    for (const attr of old.attributes) script.setAttribute(attr.name, attr.value);
    old.replaceWith(script);
  }
}

// Top-level islands only: an island hydrates the islands inside it as part of itself.
// `data-hydrated` comes back once all are interactive (lazy ones load their code first).
export async function hydrateIslands(root: ParentNode = document.body): Promise<void> {
  const hydrate = window.__hydrateIsland;
  if (!hydrate) return;
  const html = document.documentElement;
  html.setAttribute('data-navigated', 'true');
  html.removeAttribute('data-hydrated');
  const pending: Promise<unknown>[] = [];
  for (const island of root.querySelectorAll<HTMLElement>('leptos-island')) {
    if (!island.parentElement?.closest('leptos-island')) pending.push(hydrate(island, island.dataset.component));
  }
  await Promise.allSettled(pending);
  html.setAttribute('data-hydrated', 'true');
}

/**
 * Shows a page the server answered (a link followed, or a form the enhancement script sent
 * whose answer is another page): swaps it in, records it in the history, scrolls, moves
 * the focus to the main landmark, hydrates its islands and tells the page modules.
 */
export function showPage(doc: Document, finalUrl: string, push: boolean): void {
  if (push) {
    history.replaceState({ scroll: scrollY }, '');
    history.pushState({ scroll: 0 }, '', finalUrl);
  }
  swap(doc);
  const hash = new URL(finalUrl).hash;
  const target = hash && document.getElementById(decodeURIComponent(hash.slice(1)));
  if (target) target.scrollIntoView();
  else scrollTo(0, push ? 0 : (history.state as { scroll?: number } | null)?.scroll ?? 0);
  // Screen readers hear the new page: focus its main landmark.
  const main = document.getElementById('main');
  if (main) {
    main.setAttribute('tabindex', '-1');
    main.focus({ preventScroll: true });
  }
  // After the scroll, so an island that restores its own position (the homes) wins.
  void hydrateIslands();
  watchWidgets();
  emit(NAVIGATED);
}

async function go(url: URL, push: boolean): Promise<void> {
  if (typeof window.__hydrateIsland !== 'function') {
    location.assign(url);
    return;
  }
  const current = ++navigation;
  inflight?.abort();
  const controller = (inflight = new AbortController());
  document.querySelector('.progress-bar')?.classList.add('progress-bar--active');
  try {
    const answer = await fetchHtml(url.toString(), { signal: controller.signal, timeoutMs: 30000 });
    if (current !== navigation) return;
    // The answer's address has no fragment: the link's, unless a redirect took another.
    showPage(answer.doc, answer.redirected ? answer.url : url.toString(), push);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError' && current !== navigation) return;
    window.__rosaceRouteErrors = (window.__rosaceRouteErrors ?? 0) + 1;
    const reason = String(e instanceof Error ? e.message : e).slice(0, 120);
    console.error('route change failed', url.toString(), reason);
    // For the tracking library (diagnostics bundle, with the performance consent only).
    emit(ROUTE_ERROR, { path: url.pathname, reason });
    location.assign(url);
  } finally {
    if (current === navigation) inflight = null;
  }
}

// A widget whose script loads when its box comes near the viewport
// (<div data-widget-visible="...">): below-the-fold widgets (the travel price calendar,
// the offers map) cost nothing until the member scrolls to them. Again after each swap.
const requested = new Set<string>();
// It loads once it has stayed near for the lazy-load delay (`near-view.ts`).
const nearView =
  'IntersectionObserver' in window
    ? new IntersectionObserver(
        dwellThenLoad((el) => loadWidget((el as HTMLElement).dataset.widgetVisible)),
        { rootMargin: '300px' },
      )
    : null;

function loadWidget(src: string | undefined): void {
  if (!src || requested.has(src)) return;
  requested.add(src);
  const script = document.createElement('script');
  script.type = 'module';
  script.src = src;
  document.head.appendChild(script);
}

/** Watches the widget boxes of the page (again after a swap of server HTML). */
export function watchWidgets(root: ParentNode = document): void {
  for (const box of root.querySelectorAll<HTMLElement>('[data-widget-visible]')) {
    if (nearView) nearView.observe(box);
    else loadWidget(box.dataset.widgetVisible);
  }
}

/** The server says whether this member follows links in the page (in-app navigation) or
 * with page loads (the control of the `member_programmatic_navigation` holdback). */
export function inAppNavigation(root: HTMLElement = document.documentElement): boolean {
  return root.dataset.navigation !== 'pages';
}

export function start(): void {
  window.__rosaceRouteErrors ??= 0;
  addEventListener('click', (ev) => {
    if (!inAppNavigation()) return;
    const url = linkTarget(ev);
    if (!url) return;
    ev.preventDefault();
    void go(url, true);
  });
  watchWidgets();
  // A widget whose script loads when its <details data-widget="..."> is first opened.
  document.addEventListener(
    'toggle',
    (ev) => {
      const box = ev.target;
      if (!(box instanceof HTMLDetailsElement) || !box.open || !box.dataset.widget || box.dataset.loaded) return;
      box.dataset.loaded = 'true';
      loadWidget(box.dataset.widget);
    },
    true,
  );
  addEventListener('popstate', () => {
    if (inAppNavigation()) void go(new URL(location.href), false);
  });
  if (inAppNavigation()) history.scrollRestoration = 'manual';
}

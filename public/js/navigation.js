// In-app navigation for an islands page (loaded by `NavigationScript` in app/src/app.rs).
// A same-site link click fetches the next page's server HTML, swaps <body> and the
// page-specific head tags, and hydrates the new page's islands with the WASM already
// loaded, so stores held in WASM memory (cart count, favourites) live on. Anything
// unusual (another origin, a download, rel="external", a non-HTML answer, an error, the
// WASM not loaded yet) falls back to a normal page load, which always works.
(() => {
  let navigation = 0;
  let inflight = null;
  // Route changes that failed for another reason than a newer one cancelling them: counted
  // here (and logged) for the diagnostics, told as a `rosace:route-error` event for the
  // tracking library; the page then loads normally.
  window.__rosaceRouteErrors = 0;
  const HEAD_TAGS = 'title, meta[name], meta[property], link[rel=canonical], link[rel=alternate], script[type="application/ld+json"]';

  function linkTarget(ev) {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.altKey || ev.ctrlKey || ev.shiftKey) return null;
    const a = ev.composedPath().find((el) => el instanceof HTMLAnchorElement);
    if (!a || !a.href || a.target || a.hasAttribute('download')) return null;
    if ((a.getAttribute('rel') || '').split(/\s+/).includes('external')) return null;
    const url = new URL(a.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return null;
    // A jump within the page stays with the browser.
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return null;
    return url;
  }

  function swap(doc) {
    const html = document.documentElement;
    for (const attr of ['lang', 'class', 'data-ctx']) {
      const value = doc.documentElement.getAttribute(attr);
      if (value === null) html.removeAttribute(attr);
      else html.setAttribute(attr, value);
    }
    document.head.querySelectorAll(HEAD_TAGS).forEach((el) => el.remove());
    doc.head.querySelectorAll(HEAD_TAGS).forEach((el) => document.head.appendChild(document.adoptNode(el)));
    document.body.replaceWith(document.adoptNode(doc.body));
    // Scripts that arrive by parsing do not run; external ones (widgets) are loaded anew.
    for (const old of document.body.querySelectorAll('script[src]')) {
      const script = document.createElement('script');
      for (const attr of old.attributes) script.setAttribute(attr.name, attr.value);
      old.replaceWith(script);
    }
  }

  // Top-level islands only: an island hydrates the islands inside it as part of itself.
  // `data-hydrated` comes back once all are interactive (lazy ones load their code first).
  async function hydrateIslands() {
    const html = document.documentElement;
    html.setAttribute('data-navigated', 'true');
    html.removeAttribute('data-hydrated');
    const pending = [];
    for (const island of document.body.querySelectorAll('leptos-island')) {
      if (!island.parentElement.closest('leptos-island')) pending.push(window.__hydrateIsland(island, island.dataset.component));
    }
    await Promise.allSettled(pending);
    html.setAttribute('data-hydrated', 'true');
  }

  async function go(url, push) {
    if (typeof window.__hydrateIsland !== 'function') {
      location.assign(url);
      return;
    }
    const current = ++navigation;
    if (inflight) inflight.abort();
    const controller = (inflight = new AbortController());
    const bar = document.querySelector('.progress-bar');
    if (bar) bar.classList.add('progress-bar--active');
    try {
      const resp = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal: controller.signal });
      const type = resp.headers.get('content-type') || '';
      if (!type.startsWith('text/html') || resp.status >= 500) throw new Error(`status ${resp.status}`);
      const text = await resp.text();
      if (current !== navigation) return;
      const doc = new DOMParser().parseFromString(text, 'text/html');
      const finalUrl = resp.redirected ? resp.url : url.toString();
      if (push) {
        history.replaceState({ scroll: scrollY }, '');
        history.pushState({ scroll: 0 }, '', finalUrl);
      }
      swap(doc);
      const target = new URL(finalUrl).hash && document.getElementById(decodeURIComponent(new URL(finalUrl).hash.slice(1)));
      if (target) target.scrollIntoView();
      else scrollTo(0, push ? 0 : (history.state && history.state.scroll) || 0);
      // Screen readers hear the new page: focus its main landmark.
      const main = document.getElementById('main');
      if (main) {
        main.setAttribute('tabindex', '-1');
        main.focus({ preventScroll: true });
      }
      // After the scroll, so an island that restores its own position (the homes) wins.
      hydrateIslands();
      watchWidgets();
      document.dispatchEvent(new Event('rosace:navigated'));
    } catch (e) {
      if (e && e.name === 'AbortError') return;
      window.__rosaceRouteErrors += 1;
      console.error('route change failed', url.toString(), e && e.message);
      // For the tracking library (diagnostics bundle, with the performance consent only).
      document.dispatchEvent(new CustomEvent('rosace:route-error', { detail: { path: url.pathname, reason: String((e && e.message) || e).slice(0, 120) } }));
      location.assign(url);
    } finally {
      if (current === navigation) inflight = null;
    }
  }

  addEventListener('click', (ev) => {
    const url = linkTarget(ev);
    if (!url) return;
    ev.preventDefault();
    go(url, true);
  });
  // A widget whose script loads when its box comes near the viewport
  // (<div data-widget-visible="...">): below-the-fold widgets (the travel price calendar,
  // the offers map) cost nothing until the member scrolls to them. Again after each swap.
  const requested = new Set();
  const nearView = 'IntersectionObserver' in window && new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      nearView.unobserve(entry.target);
      loadWidget(entry.target.dataset.widgetVisible);
    }
  }, { rootMargin: '300px' });
  function loadWidget(src) {
    if (!src || requested.has(src)) return;
    requested.add(src);
    const script = document.createElement('script');
    script.type = 'module';
    script.src = src;
    document.head.appendChild(script);
  }
  function watchWidgets() {
    for (const box of document.querySelectorAll('[data-widget-visible]')) {
      if (nearView) nearView.observe(box);
      else loadWidget(box.dataset.widgetVisible);
    }
  }
  watchWidgets();
  // Page scripts that swap in new server HTML (the travel configurator) watch it too.
  window.__rosaceWatchWidgets = watchWidgets;
  // A widget whose script loads when its <details data-widget="..."> is first opened.
  document.addEventListener('toggle', (ev) => {
    const box = ev.target;
    if (!(box instanceof HTMLDetailsElement) || !box.open || !box.dataset.widget || box.dataset.loaded) return;
    box.dataset.loaded = 'true';
    const script = document.createElement('script');
    script.type = 'module';
    script.src = box.dataset.widget;
    document.head.appendChild(script);
  }, true);
  addEventListener('popstate', () => go(new URL(location.href), false));
  history.scrollRestoration = 'manual';
})();

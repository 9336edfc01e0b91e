// The diagnostics bundle (public/widgets/diagnostics.js), loaded only when the visitor
// accepted the performance category (C0002): Core Web Vitals with the `web-vitals`
// library, the metrics batch, error reports with their breadcrumbs, and the tracking
// library's analytics events (page views, the analytics error names). The script tag
// (app/src/diagnostics/ui.rs) names the app, its version, the page's route kind and
// whether the shop is a developer's (then nothing is posted).
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric as Vital } from 'web-vitals';
import { describeElement } from './breadcrumbs';
import { createDiagnostics, LOG_URL, METRICS_URL, type Diagnostics } from './client';
import { errorNameFor, HOME_SCROLL, HOME_SCROLL_EVENT, STATIC_RESOURCES, trafficOf } from './events';
import { APP_NAME } from './rules';
import { createTracker, EVENTS_URL, type Tracker } from './tracking';

declare global {
  interface Window {
    __rosaceDiagnostics?: Diagnostics;
    __rosaceTracker?: Tracker;
    __rosaceRouteErrors?: number;
  }
}

function start() {
  if (window.__rosaceDiagnostics) return;
  const tag = document.querySelector<HTMLScriptElement>('script[data-diagnostics]');
  const config = {
    appName: tag?.dataset.appName || APP_NAME,
    appVersion: tag?.dataset.appVersion || '0.0.0',
    dev: tag?.dataset.dev === 'true',
  };
  const d = createDiagnostics(config, { fetch: window.fetch.bind(window) });
  window.__rosaceDiagnostics = d;
  const tracker = createTracker(config, { fetch: window.fetch.bind(window) });
  window.__rosaceTracker = tracker;

  // A page view per page: the first load (with its traffic source, spec 000 §9: a search
  // engine's referrer marks organic traffic) and each in-app navigation. The route kind and
  // visibility come from the page's script tag (swapped with the body), the site from its
  // context.
  const pageView = (landing: boolean) => {
    const current = document.querySelector<HTMLScriptElement>('script[data-diagnostics]');
    let siteId: number | null = null;
    try {
      siteId = JSON.parse(document.documentElement.dataset.ctx || '{}').siteId ?? null;
    } catch {
      siteId = null;
    }
    tracker.track('page_view', {
      route: current?.dataset.route || 'unknown',
      visibility: current?.dataset.visibility || 'CLASSICAL',
      siteId,
      path: location.pathname,
      traffic: landing ? trafficOf(document.referrer, location.href) : 'internal',
    });
  };
  pageView(true);
  document.addEventListener('rosace:navigated', () => pageView(false));
  // A route change that failed (not one a newer click cancelled: pages/navigation.ts tells them
  // apart) leaves for a full page load: its page's files were not available.
  document.addEventListener('rosace:route-error', (ev) => {
    const detail = (ev as CustomEvent<{ path?: string; reason?: string }>).detail || {};
    tracker.track(STATIC_RESOURCES, { path: detail.path || '', reason: detail.reason || '', kind: 'route-change' });
  });
  // A page's own script or stylesheet that failed to load.
  addEventListener(
    'error',
    (ev) => {
      const el = ev.target;
      const url = el instanceof HTMLScriptElement ? el.src : el instanceof HTMLLinkElement ? el.href : '';
      if (url) tracker.track(STATIC_RESOURCES, { path: new URL(url, location.href).pathname, kind: 'file' });
    },
    true,
  );

  // The home's furthest scroll position (spec 000 §4 "Scroll tracking"), sent by the home's
  // ScrollKeeper island (app/src/home/ui/scroll.rs) as the page goes away: out at once.
  addEventListener(HOME_SCROLL_EVENT, (ev) => {
    const detail = (ev as CustomEvent<{ home?: unknown; maxScroll?: unknown }>).detail || {};
    if (typeof detail.home !== 'string' || typeof detail.maxScroll !== 'number') return;
    tracker.track(HOME_SCROLL, { home: detail.home, maxScroll: detail.maxScroll });
    tracker.flush(true);
  });

  // Breadcrumbs: navigations (first load, in-app, history), clicks, failed fetches.
  d.breadcrumbs.add('navigation', location.pathname);
  document.addEventListener('rosace:navigated', () => d.breadcrumbs.add('navigation', location.pathname));
  addEventListener('popstate', () => d.breadcrumbs.add('navigation', location.pathname));
  document.addEventListener('click', (ev) => d.breadcrumbs.add('click', describeElement(ev.target as Element | null)), true);
  const original = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    let path = '';
    try {
      path = new URL(input instanceof Request ? input.url : String(input), location.href).pathname;
    } catch {
      path = 'invalid-url';
    }
    const method = (init?.method || (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const own = path === LOG_URL || path === METRICS_URL || path === EVENTS_URL;
    const result = original.call(window, input, init);
    // The analytics error a failed call stands for (spec 000 §8), if any.
    const failed = (status: number) => {
      const name = errorNameFor(path, status);
      if (name) tracker.track(name, { path, method, status });
    };
    if (!own) {
      result.then(
        (res) => {
          if (res.status >= 400) {
            d.breadcrumbs.add('fetch', `${method} ${path} ${res.status}`);
            failed(res.status);
          }
        },
        (e: unknown) => {
          if (!(e instanceof DOMException && e.name === 'AbortError')) {
            d.breadcrumbs.add('fetch', `${method} ${path} failed`);
            failed(0);
          }
        },
      );
    }
    return result;
  };

  // Uncaught errors and rejections: an Error log with the trail.
  addEventListener('error', (ev: ErrorEvent) => {
    if (!ev.message && !ev.error) return; // a resource that failed to load, not a script error
    d.reportError(ev.message || String(ev.error), {
      kind: 'error',
      source: ev.filename ? new URL(ev.filename, location.href).pathname : '',
      line: ev.lineno,
      column: ev.colno,
      stack: ev.error instanceof Error ? ev.error.stack : undefined,
    });
  });
  addEventListener('unhandledrejection', (ev: PromiseRejectionEvent) => {
    const reason = ev.reason;
    d.reportError(reason instanceof Error ? reason.message : String(reason), {
      kind: 'unhandledrejection',
      stack: reason instanceof Error ? reason.stack : undefined,
    });
  });

  // Core Web Vitals, rated by the shared rule (rules.ts), in the metrics batch.
  const report = (v: Vital) =>
    d.metric(v.name, v.value, v.name === 'CLS' ? 'gauge' : 'timing', { navigationType: v.navigationType });
  onTTFB(report);
  onFCP(report);
  onLCP(report);
  onCLS(report);
  onINP(report);

  // After web-vitals' own listeners (added above): what the page reports as it goes away
  // (LCP, CLS, INP, failed route changes) leaves with it.
  let routeErrors = 0;
  const leave = () => {
    const failed = (window.__rosaceRouteErrors ?? 0) - routeErrors;
    if (failed > 0) {
      routeErrors += failed;
      d.metric('route_change_error', failed, 'count');
    }
    d.queue.flush(true);
    tracker.flush(true);
  };
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  }, true);
  addEventListener('pagehide', leave, true);
}

start();

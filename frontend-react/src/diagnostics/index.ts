// The diagnostics bundle (public/widgets/diagnostics.js), loaded only when the visitor
// accepted the performance category (C0002): Core Web Vitals with the `web-vitals`
// library, the metrics batch, and error reports with their breadcrumbs. The script tag
// (app/src/diagnostics/ui.rs) names the app, its version and whether the shop is a
// developer's (then nothing is posted).
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric as Vital } from 'web-vitals';
import { describeElement } from './breadcrumbs';
import { createDiagnostics, LOG_URL, METRICS_URL, type Diagnostics } from './client';
import { APP_NAME } from './rules';

declare global {
  interface Window {
    __rosaceDiagnostics?: Diagnostics;
    __rosaceRouteErrors?: number;
  }
}

function start() {
  if (window.__rosaceDiagnostics) return;
  const tag = document.querySelector<HTMLScriptElement>('script[data-diagnostics]');
  const d = createDiagnostics(
    {
      appName: tag?.dataset.appName || APP_NAME,
      appVersion: tag?.dataset.appVersion || '0.0.0',
      dev: tag?.dataset.dev === 'true',
    },
    { fetch: window.fetch.bind(window) },
  );
  window.__rosaceDiagnostics = d;

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
    const own = path === LOG_URL || path === METRICS_URL;
    const result = original.call(window, input, init);
    if (!own) {
      result.then(
        (res) => {
          if (res.status >= 400) d.breadcrumbs.add('fetch', `${method} ${path} ${res.status}`);
        },
        (e: unknown) => {
          if (!(e instanceof DOMException && e.name === 'AbortError')) d.breadcrumbs.add('fetch', `${method} ${path} failed`);
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
  };
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  }, true);
  addEventListener('pagehide', leave, true);
}

start();

import { test as base, expect, type Page, type Request } from '@playwright/test';

// Diagnostics (spec 000 §7 "Diagnostics"): only with the performance consent
// (C0002) does the page load the diagnostics bundle, which posts the Core Web Vitals
// (web-vitals library) in metrics batches, an Error log with breadcrumbs for an uncaught
// error and the tracking library's analytics events (a page view per page) with its device
// id cookie; without the consent nothing is loaded, nothing is posted, no cookie is set.
const METRICS = '/api/frontend-logger/v1/metrics';
const LOG = '/api/frontend-logger/v1/log';
const EVENTS = '/api/tracking/v1/events';
const RATINGS = ['good', 'needs-improvement', 'poor'];

type Metric = { name: string; value: number; type: string; tags: Record<string, string> };

function consent(performance: boolean) {
  return base.extend({
    context: async ({ context, baseURL }, use) => {
      const perf = performance ? 1 : 0;
      await context.addCookies([
        { name: 'OptanonConsent', value: `groups=C0001:1,C0002:${perf},C0003:0,C0004:0,C0005:0`, url: baseURL! },
      ]);
      await use(context);
    },
  });
}

/** Every diagnostics POST the page makes, as they go. */
function watch(page: Page) {
  const posts: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && (r.url().includes('/api/frontend-logger/') || r.url().includes('/api/tracking/'))) posts.push(r);
  });
  const metrics = () =>
    posts.filter((r) => r.url().includes(METRICS)).flatMap((r) => (r.postDataJSON() as { metrics: Metric[] }).metrics);
  return { posts, metrics };
}

/** The page as a tab that goes to the background: what web-vitals reports then leaves. */
async function hide(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    // As a browser sends it: it bubbles from the document to the window.
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
}

const withPerformance = consent(true);

withPerformance('with the performance consent, the Core Web Vitals go out in metrics batches', async ({ page }) => {
  const { posts, metrics } = watch(page);
  const first = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes(METRICS));
  await page.goto('/gr/aboutus');
  const tag = page.locator('script[data-diagnostics]');
  await expect(tag).toHaveAttribute('src', /^\/widgets\/diagnostics-[\w-]+\.js$/);
  await expect(tag).toHaveAttribute('data-dev', 'false');

  // The first batch (1 s after TTFB and FCP were queued): the documented shape.
  const request = await first;
  expect(request.headers()['x-xsrf-token']).toBeTruthy();
  expect(request.headers()['content-type']).toBe('application/json');
  const batch = request.postDataJSON();
  expect(Object.keys(batch).sort()).toEqual(['metrics', 'tags']);
  expect(batch.tags).toEqual({ appName: 'rosace-web', version: await tag.getAttribute('data-app-version') });
  expect((await request.response())?.status()).toBe(204);

  // An interaction that takes a while (INP), then the tab goes to the background: LCP,
  // CLS and INP are final then, and leave in a batch.
  await page.evaluate(() =>
    document.querySelector('h1')!.addEventListener('click', () => {
      const start = performance.now();
      while (performance.now() - start < 120) {
        /* a slow handler */
      }
    }),
  );
  // The browser files an interaction's timing entry after the next frame, and web-vitals
  // takes it in when idle: wait for both (as a real tab lives on) before it is hidden.
  await page.evaluate(() => {
    const w = window as unknown as { __interactions: number };
    w.__interactions = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if ((e as PerformanceEventTiming).interactionId) w.__interactions += 1;
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
  await page.locator('h1').first().click();
  await page.waitForFunction(() => (window as unknown as { __interactions: number }).__interactions > 0);
  // web-vitals files the entry in an idle callback, queued before this one.
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(null))));
  await hide(page);
  await expect.poll(() => metrics().map((m) => m.name).sort()).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
  for (const m of metrics()) {
    expect(m.type).toBe(m.name === 'CLS' ? 'gauge' : 'timing');
    expect(typeof m.value).toBe('number');
    expect(m.value).toBeGreaterThanOrEqual(0);
    expect(RATINGS).toContain(m.tags.rating);
  }
  expect(metrics().find((m) => m.name === 'INP')!.value).toBeGreaterThanOrEqual(100);
  // Every batch was taken by the server.
  for (const r of posts) expect((await r.response())?.status()).toBe(204);
});

withPerformance('an uncaught error posts an Error log with the breadcrumbs', async ({ page }) => {
  await page.goto('/gr/aboutus');
  await page.waitForFunction(() => '__rosaceDiagnostics' in window);
  await page.locator('h1').first().click();
  // A failed call leaves a breadcrumb too.
  await page.evaluate(() => fetch('/api/no-such-call/v1').then((r) => r.status));
  const logged = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes(LOG));
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('diagnostics e2e: boom');
    });
  });
  const request = await logged;
  const entry = request.postDataJSON();
  expect(entry).toMatchObject({ appName: 'rosace-web', level: 'Error' });
  expect(entry.message).toContain('diagnostics e2e: boom');
  expect(entry.appVersion).toMatch(/^\d+\.\d+\.\d+/);
  expect(new Date(entry.timestamp).toISOString()).toBe(entry.timestamp);
  expect(entry.context.stack).toContain('diagnostics e2e: boom');
  const crumbs = entry.context.breadcrumbs as { category: string; message: string }[];
  expect(crumbs.length).toBeLessThanOrEqual(50);
  expect(crumbs).toContainEqual(expect.objectContaining({ category: 'navigation', message: '/gr/aboutus' }));
  expect(crumbs).toContainEqual(expect.objectContaining({ category: 'click', message: expect.stringMatching(/^h1/) }));
  expect(crumbs).toContainEqual(expect.objectContaining({ category: 'fetch', message: 'GET /api/no-such-call/v1 404' }));
  expect((await request.response())?.status()).toBe(204);
});

withPerformance('with the performance consent, a page view goes out in a tracking batch with the device id', async ({ page, context }) => {
  const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes(EVENTS));
  // Arriving from a search engine: organic traffic (spec 000 §9).
  await page.goto('/gr/aboutus', { referer: 'https://www.google.fr/' });
  // The batch leaves 5 s after the page view was queued.
  const request = await posted;
  expect(request.headers()['x-xsrf-token']).toBeTruthy();
  const batch = request.postDataJSON();
  expect(Object.keys(batch).sort()).toEqual(['deviceId', 'events', 'tags']);
  expect(batch.tags.appName).toBe('rosace-web');
  const view = batch.events.find((e: { name: string }) => e.name === 'page_view');
  expect(view).toBeTruthy();
  expect(view.properties).toMatchObject({ route: 'AboutUs', visibility: 'CLASSICAL', siteId: 1, path: '/gr/aboutus', traffic: 'organic' });
  expect(view.droppedProperties).toBe(0);
  expect(new Date(view.timestamp).toISOString()).toBe(view.timestamp);
  expect((await request.response())?.status()).toBe(204);

  // The device id cookie: first party, SameSite=Lax, 365 days, the id the batch carried.
  const cookie = (await context.cookies()).find((c) => c.name === 'rosace_tid');
  expect(cookie).toBeTruthy();
  expect(cookie!.value).toBe(batch.deviceId);
  expect(cookie!.sameSite).toBe('Lax');
  expect(cookie!.httpOnly).toBe(false);
  const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThanOrEqual(365);

  // An event tracked as the tab goes to the background leaves at once (keepalive).
  const leaving = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes(EVENTS));
  await page.evaluate(() => (window as unknown as { __rosaceTracker: { track: (n: string) => void } }).__rosaceTracker.track('page_view'));
  await hide(page);
  const second = await leaving;
  expect(second.postDataJSON().deviceId).toBe(batch.deviceId);
  expect((await second.response())?.status()).toBe(204);
});

/** Adds a same-site link the navigation script will follow in the page. */
async function addLink(page: Page, id: string, href: string) {
  await page.evaluate(
    ([id, href]) => {
      const a = document.createElement('a');
      a.href = href;
      a.id = id;
      a.textContent = id;
      document.body.appendChild(a);
    },
    [id, href],
  );
}

type Posted = { events: { name: string; properties: Record<string, unknown> }[] };

withPerformance('a failed route change raises the route_change_error metric and a "Static ressources are not available" event', async ({ page, context }) => {
  // What the page sends (keepalive fetches), watched on the context.
  const bodies: { url: string; body: unknown }[] = [];
  context.on('request', (r) => {
    const data = r.method() === 'POST' ? r.postData() : null;
    if (data && (r.url().includes(METRICS) || r.url().includes(EVENTS))) bodies.push({ url: r.url(), body: JSON.parse(data) });
  });
  await page.goto('/gr/aboutus');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.waitForFunction(() => '__rosaceTracker' in window);
  // The in-page fetch of the next page fails. The full page load pages/navigation.ts falls back
  // to is cancelled too, so this page stays and its reports are sent from a live page as
  // the tab is hidden (what it sends while unloading is not always seen by the test).
  await page.route(
    (url) => url.pathname === '/find',
    (route) => route.abort(route.request().resourceType() === 'fetch' ? 'failed' : 'aborted'),
  );
  await addLink(page, 'go-find', '/find');
  await page.locator('#go-find').click();
  await page.waitForFunction(() => (window as unknown as { __rosaceRouteErrors: number }).__rosaceRouteErrors === 1);
  await hide(page);
  const metrics = () =>
    bodies.filter((b) => b.url.includes(METRICS)).flatMap((b) => (b.body as { metrics: Metric[] }).metrics);
  const events = () => bodies.filter((b) => b.url.includes(EVENTS)).flatMap((b) => (b.body as Posted).events);
  await expect.poll(() => metrics().filter((m) => m.name === 'route_change_error').map((m) => [m.type, m.value])).toEqual([['count', 1]]);
  await expect.poll(() => events().filter((e) => e.name === 'Static ressources are not available').length).toBe(1);
  const failed = events().find((e) => e.name === 'Static ressources are not available')!;
  expect(failed.properties).toMatchObject({ path: '/find', kind: 'route-change' });
});

withPerformance('a route change cancelled by a newer one is no error', async ({ page }) => {
  const { posts, metrics } = watch(page);
  await page.goto('/gr/aboutus');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.waitForFunction(() => '__rosaceTracker' in window);
  // The first target answers slowly: the second click cancels it.
  await page.route(
    (url) => url.pathname === '/find',
    async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    },
  );
  await addLink(page, 'go-slow', '/find');
  await addLink(page, 'go-home', '/gr/home/default');
  await page.locator('#go-slow').click();
  await page.locator('#go-home').click();
  await expect(page).toHaveURL(/\/gr\/home\/default/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  expect(await page.evaluate(() => (window as unknown as { __rosaceRouteErrors: number }).__rosaceRouteErrors)).toBe(0);
  await hide(page);
  // The in-app page view of the new page leaves; no error with it.
  const events = () =>
    posts.filter((r) => r.url().includes(EVENTS)).flatMap((r) => (r.postDataJSON() as Posted).events);
  await expect.poll(() => events().filter((e) => e.name === 'page_view' && e.properties.traffic === 'internal').length).toBeGreaterThan(0);
  expect(events().map((e) => e.name)).not.toContain('Static ressources are not available');
  expect(metrics().map((m) => m.name)).not.toContain('route_change_error');
});

withPerformance('the home reports its furthest scroll position once, as the page goes away', async ({ page }) => {
  const { posts } = watch(page);
  await page.goto('/?site=1');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.waitForFunction(() => '__rosaceTracker' in window);
  await page.getByTestId('sale-grid').locator('a').nth(6).scrollIntoViewIfNeeded();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  const furthest = await page.evaluate(() => window.scrollY);
  // A position counts once the page rests there (the 500 ms debounce, spec 000 §4).
  await expect
    .poll(() => page.evaluate(() => Number(sessionStorage.getItem('rosace.home.scroll.default.max') ?? 0)))
    .toBeGreaterThan(300);
  // Back up: the furthest position counts, not the last one.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  const events = () =>
    posts.filter((r) => r.url().includes(EVENTS)).flatMap((r) => (r.postDataJSON() as Posted).events);
  expect(events().filter((e) => e.name === 'home_scroll_depth')).toEqual([]);
  await hide(page);
  await expect.poll(() => events().filter((e) => e.name === 'home_scroll_depth').length).toBe(1);
  const sent = events().find((e) => e.name === 'home_scroll_depth')!;
  expect(sent.properties.home).toBe('default');
  expect(Number(sent.properties.maxScroll)).toBeGreaterThan(furthest - 30);
  expect(Number(sent.properties.maxScroll)).toBeLessThan(furthest + 30);
  // Hidden again with nothing further: nothing more.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    Object.defineProperty(document, 'hidden', { value: false, configurable: true });
  });
  await hide(page);
  await page.waitForTimeout(500);
  expect(events().filter((e) => e.name === 'home_scroll_depth')).toHaveLength(1);
});

consent(false)('without the performance consent, no script and nothing posted', async ({ page }) => {
  const { posts } = watch(page);
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/widgets/diagnostics-')) scripts.push(r.url());
  });
  await page.goto('/gr/aboutus');
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('script[data-consent="C0002"]')).toHaveCount(0);
  await page.locator('h1').first().click();
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('no consent: not reported');
    });
  });
  await hide(page);
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => '__rosaceDiagnostics' in window)).toBe(false);
  expect(scripts).toEqual([]);
  expect(posts).toEqual([]);
  expect(await page.evaluate(() => '__rosaceTracker' in window)).toBe(false);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('rosace_tid');
});

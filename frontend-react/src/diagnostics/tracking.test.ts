import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// The shared vectors: app/tests/rule_vectors.rs checks the Rust limits against the same file.
import vectors from '../../../app/tests/vectors/diagnostics.json';
import { ORDER_PIPE, SALE_CONTENT, SEARCH_RESULTS, STATIC_RESOURCES } from './events';
import {
  backoff,
  BATCH_MAX,
  DEVICE_COOKIE_DAYS,
  FLUSH_MS,
  capProperties,
  createTracker,
  DEVICE_COOKIE,
  EVENTS_URL,
  performanceConsent,
  PROPERTIES_MAX,
  QUEUE_CAP,
  REQUEST_TIMEOUT_MS,
  RETRY_CEILING_MS,
  type TrackerDeps,
} from './tracking';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A tracker over a cookie jar and a fetch the test answers. */
function setup(opts: { consent?: boolean; dev?: boolean; https?: boolean; fetch?: unknown } = {}) {
  const jar: string[] = ['XSRF-TOKEN=tok%3D1'];
  const written: string[] = [];
  let consent = opts.consent ?? true;
  const fetch = (opts.fetch ?? vi.fn().mockResolvedValue(new Response(null, { status: 204 }))) as ReturnType<typeof vi.fn>;
  const deps: TrackerDeps = {
    fetch: fetch as unknown as typeof globalThis.fetch,
    now: () => new Date('2026-11-24T06:00:00Z'),
    consent: () => consent,
    cookies: {
      read: () => jar.join('; '),
      write: (c) => {
        written.push(c);
        const [pair] = c.split(';');
        const name = pair.split('=')[0];
        const at = jar.findIndex((x) => x.startsWith(`${name}=`));
        if (at >= 0) jar.splice(at, 1);
        if (!/Max-Age=0(;|$)/.test(c)) jar.push(pair);
      },
    },
    https: opts.https ?? false,
    newId: () => ID,
  };
  const t = createTracker({ appName: 'rosace-web', appVersion: '0.1.0', dev: opts.dev ?? false }, deps);
  return { t, fetch, jar, written, withdraw: () => (consent = false) };
}

const body = (call: unknown[]) => JSON.parse((call[1] as RequestInit).body as string);
const names = (call: unknown[]) => body(call).events.map((e: { name: string }) => e.name);

describe('tracking library constants (shared vectors)', () => {
  it('has the limits and event names of the Rust rules', () => {
    const v = vectors.tracking;
    expect([BATCH_MAX, FLUSH_MS, REQUEST_TIMEOUT_MS, RETRY_CEILING_MS, PROPERTIES_MAX, DEVICE_COOKIE, DEVICE_COOKIE_DAYS]).toEqual([
      v.batchMax,
      v.flushMs,
      v.requestTimeoutMs,
      v.retryCeilingMs,
      v.propertiesMax,
      v.deviceCookie,
      v.deviceCookieDays,
    ]);
    expect(['page_view', ORDER_PIPE, SEARCH_RESULTS, STATIC_RESOURCES, SALE_CONTENT]).toEqual(v.eventNames);
  });
});

describe('tracking library queue rules (batch 50, every 5 s, 90 s timeout, retries up to 10 min)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends what waits 5 s after the first event, with the device id, tags and XSRF header', async () => {
    const { t, fetch } = setup();
    t.track('page_view', { route: 'Catalog', siteId: 1 });
    await vi.advanceTimersByTimeAsync(3000);
    t.track('Unavailable Order Pipe', { status: 503 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(EVENTS_URL);
    expect(init.method).toBe('POST');
    expect(init.headers['X-XSRF-TOKEN']).toBe('tok=1');
    expect(body(fetch.mock.calls[0])).toEqual({
      events: [
        { name: 'page_view', timestamp: '2026-11-24T06:00:00.000Z', properties: { route: 'Catalog', siteId: 1 }, droppedProperties: 0 },
        { name: 'Unavailable Order Pipe', timestamp: '2026-11-24T06:00:00.000Z', properties: { status: 503 }, droppedProperties: 0 },
      ],
      deviceId: ID,
      tags: { appName: 'rosace-web', version: '0.1.0' },
    });
    expect(t.size()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('sends at once when the 50th event is queued; the 51st waits for the next 5 s', async () => {
    const { t, fetch } = setup();
    for (let i = 0; i < BATCH_MAX - 1; i++) t.track(`e${i}`);
    expect(fetch).not.toHaveBeenCalled();
    t.track('e49');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(body(fetch.mock.calls[0]).events).toHaveLength(50);
    await vi.advanceTimersByTimeAsync(0);
    t.track('e50');
    await vi.advanceTimersByTimeAsync(4999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(names(fetch.mock.calls[1])).toEqual(['e50']);
  });

  it('gives a request 90 s, then keeps the events and retries them', async () => {
    const signals: AbortSignal[] = [];
    const fetch = vi.fn((_url: string, init: RequestInit): Promise<Response> => {
      signals.push(init.signal!);
      if (signals.length > 1) return Promise.resolve(new Response(null, { status: 204 }));
      return new Promise<Response>((_ok, fail) =>
        init.signal!.addEventListener('abort', () => fail(new DOMException('aborted', 'AbortError'))),
      );
    });
    const { t } = setup({ fetch });
    t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(signals[0].aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0].aborted).toBe(true);
    expect(t.size()).toBe(1);
    // First retry after 5 s, with the same event.
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(names(fetch.mock.calls[1] as unknown[])).toEqual(['page_view']);
    expect(t.size()).toBe(0);
  });

  it('backs off exponentially after failures, never waiting more than 10 min', async () => {
    expect([1, 2, 3, 4, 7, 8, 9, 50].map(backoff)).toEqual([
      5000, 10_000, 20_000, 40_000, 320_000, RETRY_CEILING_MS, RETRY_CEILING_MS, RETRY_CEILING_MS,
    ]);
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 503 }));
    const { t } = setup({ fetch });
    t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    const times = [Date.now()];
    for (let i = 0; i < 10; i++) {
      const before = fetch.mock.calls.length;
      while (fetch.mock.calls.length === before) await vi.advanceTimersByTimeAsync(1000);
      times.push(Date.now());
    }
    const gaps = times.slice(1).map((x, i) => x - times[i]);
    expect(gaps).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000, 600_000]);
    // Events queued meanwhile wait for the retry, not for their own 5 s.
    t.track('later');
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(11);
    expect(t.size()).toBe(2);
    // The server back: both go, and the backoff starts over.
    fetch.mockResolvedValue(new Response(null, { status: 204 }));
    await vi.advanceTimersByTimeAsync(RETRY_CEILING_MS);
    expect(names(fetch.mock.calls[11])).toEqual(['page_view', 'later']);
    expect(t.size()).toBe(0);
  });

  it('drops a batch the server refuses for good (400), retries a 429', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 429 }));
    const { t } = setup({ fetch });
    t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.size()).toBe(1);
    fetch.mockResolvedValue(new Response(null, { status: 400 }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(t.size()).toBe(0);
  });

  it('keeps at most a bounded queue while the server is away, dropping the oldest', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 503 }));
    const { t } = setup({ fetch });
    for (let i = 0; i < 49; i++) t.track(`old${i}`);
    await vi.advanceTimersByTimeAsync(5000);
    for (let i = 0; i < QUEUE_CAP + 20; i++) t.track(`new${i}`);
    expect(t.size()).toBe(QUEUE_CAP);
    fetch.mockResolvedValue(new Response(null, { status: 204 }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(names(fetch.mock.calls[1])[0]).toBe('new20');
  });

  it('sends everything waiting, in batches of 50, with keepalive as the page goes away', () => {
    const { t, fetch } = setup();
    for (let i = 0; i < 120; i++) t.track(`e${i}`);
    // The first 50 left when the 50th came and are still in flight; 70 wait.
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][1].keepalive).toBe(false);
    t.flush(true);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fetch.mock.calls[1][1].keepalive).toBe(true);
    expect(names(fetch.mock.calls[1])).toEqual(Array.from({ length: 50 }, (_, i) => `e${i + 50}`));
    expect(names(fetch.mock.calls[2])).toHaveLength(20);
    expect(t.size()).toBe(50);
  });
});

describe('tracking properties, device cookie and consent', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the first 30 usable keys in insertion order and counts the dropped ones', () => {
    const input: Record<string, unknown> = { 'bad key': 1, skipped: undefined };
    for (let i = 0; i < 35; i++) input[`k${i}`] = i;
    const { properties, dropped } = capProperties(input);
    expect(Object.keys(properties)).toHaveLength(PROPERTIES_MAX);
    expect(Object.keys(properties)[0]).toBe('k0');
    expect(Object.keys(properties)[29]).toBe('k29');
    expect(dropped).toBe(6);
    expect(capProperties({ t: 'x'.repeat(300), n: Infinity, o: { a: 1 }, b: false, z: null }).properties).toEqual({
      t: 'x'.repeat(256),
      n: null,
      o: '{"a":1}',
      b: false,
      z: null,
    });
  });

  it('sends the capped properties with the count of dropped keys', async () => {
    const { t, fetch } = setup();
    const wide: Record<string, number> = {};
    for (let i = 0; i < 40; i++) wide[`p${i}`] = i;
    t.track('page_view', wide);
    await vi.advanceTimersByTimeAsync(5000);
    const [event] = body(fetch.mock.calls[0]).events;
    expect(Object.keys(event.properties)).toHaveLength(30);
    expect(event.droppedProperties).toBe(10);
  });

  it('sets the device id cookie once, for 365 days, SameSite=Lax, Secure over HTTPS', async () => {
    const { t, written, fetch } = setup({ https: true });
    t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toEqual([`${DEVICE_COOKIE}=${ID}; Max-Age=31536000; Path=/; SameSite=Lax; Secure`]);
    t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(body(fetch.mock.calls[1]).deviceId).toBe(ID);
    expect(written).toHaveLength(1);

    const plain = setup({ https: false });
    plain.t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    expect(plain.written).toEqual([`${DEVICE_COOKIE}=${ID}; Max-Age=31536000; Path=/; SameSite=Lax`]);
  });

  it('sends nothing and sets no cookie without the consent, or in a development shop', async () => {
    for (const opts of [{ consent: false }, { dev: true }]) {
      const { t, fetch, written } = setup(opts);
      for (let i = 0; i < 60; i++) t.track('page_view');
      await vi.advanceTimersByTimeAsync(60_000);
      t.flush(true);
      expect(fetch).not.toHaveBeenCalled();
      expect(written).toEqual([]);
      expect(t.size()).toBe(0);
    }
  });

  it('a consent withdrawn meanwhile drops the queue and the cookie', async () => {
    const { t, fetch, jar, withdraw } = setup();
    t.track('page_view');
    await vi.advanceTimersByTimeAsync(5000);
    expect(jar).toContain(`${DEVICE_COOKIE}=${ID}`);
    t.track('page_view');
    withdraw();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(t.size()).toBe(0);
    expect(jar.some((c) => c.startsWith(`${DEVICE_COOKIE}=`))).toBe(false);
  });

  it('reads the performance consent from the consent cookie', () => {
    expect(performanceConsent('OptanonConsent=groups=C0001:1,C0002:1,C0003:0')).toBe(true);
    expect(performanceConsent('a=1; OptanonConsent=isGpcEnabled=0&groups=C0001%3A1%2CC0002%3A1')).toBe(true);
    expect(performanceConsent('OptanonConsent=groups=C0001:1,C0002:0,C0003:1')).toBe(false);
    expect(performanceConsent('OptanonConsent=groups=C0001:1,C00021:1')).toBe(false);
    expect(performanceConsent('other=1')).toBe(false);
  });
});

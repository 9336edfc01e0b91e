import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDiagnostics, ERROR_REPORTS_MAX, LOG_URL, METRICS_URL } from './client';

function setup(dev = false) {
  const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
  const d = createDiagnostics(
    { appName: 'rosace-web', appVersion: '0.1.0', dev },
    { fetch: fetch as unknown as typeof globalThis.fetch, now: () => new Date('2026-11-24T06:00:00Z') },
  );
  return { d, fetch };
}

const body = (call: unknown[]) => JSON.parse((call[1] as RequestInit).body as string);

describe('diagnostics client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    document.cookie = 'XSRF-TOKEN=tok%3D1';
  });
  afterEach(() => vi.useRealTimers());

  it('batches rated vitals with the app tags and the XSRF header', () => {
    const { d, fetch } = setup();
    d.metric('LCP', 2600, 'timing');
    d.metric('CLS', 0.05, 'gauge');
    d.metric('clicks', 3, 'count');
    expect(fetch).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(METRICS_URL);
    expect(init.method).toBe('POST');
    expect(init.headers['X-XSRF-TOKEN']).toBe('tok=1');
    expect(body(fetch.mock.calls[0])).toEqual({
      metrics: [
        { name: 'LCP', value: 2600, type: 'timing', tags: { rating: 'needs-improvement' } },
        { name: 'CLS', value: 0.05, type: 'gauge', tags: { rating: 'good' } },
        { name: 'clicks', value: 3, type: 'count', tags: {} },
      ],
      tags: { appName: 'rosace-web', version: '0.1.0' },
    });
  });

  it('posts an Error log with the breadcrumbs for an uncaught error', () => {
    const { d, fetch } = setup();
    d.breadcrumbs.add('navigation', '/gr/home');
    d.breadcrumbs.add('click', 'button#buy');
    d.reportError('boom', { kind: 'error', stack: 'Error: boom\n at x' });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toBe(LOG_URL);
    const log = body(fetch.mock.calls[0]);
    expect(log).toMatchObject({ appName: 'rosace-web', appVersion: '0.1.0', level: 'Error', message: 'boom', timestamp: '2026-11-24T06:00:00.000Z' });
    expect(log.context.breadcrumbs.map((c: { message: string }) => c.message)).toEqual(['/gr/home', 'button#buy']);
    expect(log.context.stack).toContain('Error: boom');
  });

  it('sends at most a few error reports per page, with at most 50 breadcrumbs', () => {
    const { d, fetch } = setup();
    for (let i = 0; i < 80; i++) d.breadcrumbs.add('click', `c${i}`);
    for (let i = 0; i < ERROR_REPORTS_MAX + 5; i++) d.reportError(`e${i}`, {});
    expect(fetch).toHaveBeenCalledTimes(ERROR_REPORTS_MAX);
    expect(body(fetch.mock.calls[0]).context.breadcrumbs).toHaveLength(50);
  });

  it('sends nothing in a development shop', () => {
    const { d, fetch } = setup(true);
    d.metric('LCP', 1000, 'timing');
    d.log('Information', 'hello');
    d.reportError('boom', {});
    vi.advanceTimersByTime(5000);
    d.queue.flush(true);
    expect(fetch).not.toHaveBeenCalled();
  });
});

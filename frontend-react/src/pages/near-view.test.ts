import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { dwellThenLoad, LAZY_DELAY_MS } from './near-view';

function box(id: string): HTMLElement {
  const el = document.createElement('div');
  el.id = id;
  return el;
}

function entry(target: Element, isIntersecting: boolean): IntersectionObserverEntry {
  return { target, isIntersecting } as IntersectionObserverEntry;
}

describe('dwellThenLoad', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const observer = () => ({ unobserve: vi.fn() }) as unknown as IntersectionObserver & { unobserve: ReturnType<typeof vi.fn> };

  it('loads an element that stays near the viewport for the delay, once', () => {
    const load = vi.fn();
    const obs = observer();
    const callback = dwellThenLoad(load);
    const map = box('map');
    callback([entry(map, true)], obs);
    vi.advanceTimersByTime(LAZY_DELAY_MS - 1);
    expect(load).not.toHaveBeenCalled();
    // Seen again while waiting: still one timer.
    callback([entry(map, true)], obs);
    vi.advanceTimersByTime(1);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0][0]).toBe(map);
    expect(obs.unobserve.mock.calls.map((c) => c[0])).toEqual([map]);
    vi.advanceTimersByTime(1000);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not load an element scrolled past before the delay, and waits again when it returns', () => {
    const load = vi.fn();
    const obs = observer();
    const callback = dwellThenLoad(load);
    const passed = box('passed');
    const other = box('other');
    callback([entry(passed, true), entry(other, true)], obs);
    vi.advanceTimersByTime(150);
    callback([entry(passed, false)], obs);
    vi.advanceTimersByTime(100);
    expect(load.mock.calls.map((c) => c[0])).toEqual([other]);
    expect(obs.unobserve.mock.calls.map((c) => (c[0] as Element).id)).toEqual(['other']);
    callback([entry(passed, true)], obs);
    vi.advanceTimersByTime(LAZY_DELAY_MS - 1);
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(load.mock.calls.map((c) => c[0])).toEqual([other, passed]);
  });

  it('ignores an element leaving that never waited', () => {
    const load = vi.fn();
    const callback = dwellThenLoad(load);
    callback([entry(box('never'), false)], observer());
    vi.advanceTimersByTime(1000);
    expect(load).not.toHaveBeenCalled();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import source from './idle-deadline.js?raw';

// The script as the page runs it, on a window whose idle callbacks the test calls by hand.
function install() {
  const pending: IdleRequestCallback[] = [];
  const win = {
    requestIdleCallback: (callback: IdleRequestCallback) => pending.push(callback),
  } as unknown as Window;
  new Function('window', source)(win);
  return { win, pending };
}

describe('idle deadline (before Leptos island script)', () => {
  afterEach(() => vi.useRealTimers());

  it('runs the callback after 2 s when no idle period comes, once', () => {
    vi.useFakeTimers();
    const { win, pending } = install();
    const calls: boolean[] = [];
    win.requestIdleCallback((d) => calls.push(d.didTimeout));
    vi.advanceTimersByTime(1999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([true]);
    pending[0]({ didTimeout: false, timeRemaining: () => 10 });
    expect(calls).toEqual([true]);
  });

  it('runs it at the first idle period, and not again at the deadline', () => {
    vi.useFakeTimers();
    const { win, pending } = install();
    const calls: boolean[] = [];
    win.requestIdleCallback((d) => calls.push(d.didTimeout));
    pending[0]({ didTimeout: false, timeRemaining: () => 10 });
    vi.advanceTimersByTime(5000);
    expect(calls).toEqual([false]);
  });

  it('leaves a call with its own time-out to the browser', () => {
    vi.useFakeTimers();
    const { win, pending } = install();
    const calls: boolean[] = [];
    win.requestIdleCallback((d) => calls.push(d.didTimeout), { timeout: 500 });
    vi.advanceTimersByTime(5000);
    expect(calls).toEqual([]);
    expect(pending).toHaveLength(1);
  });
});

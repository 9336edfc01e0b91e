// When a lazy element loads (spec 000 §3, lazy-load delay 200 ms): once it has stayed
// near the viewport for the delay. A fast scroll past a widget (the offers map, the price
// calendar) then downloads nothing; one the member stops at loads 200 ms later, still
// before it shows, as the observer looks 300 px ahead.

/** How long an element must stay near the viewport before it loads. */
export const LAZY_DELAY_MS = 200;

type Timers = {
  set: (run: () => void, ms: number) => number;
  clear: (id: number) => void;
};

const windowTimers: Timers = {
  set: (run, ms) => window.setTimeout(run, ms),
  clear: (id) => window.clearTimeout(id),
};

/**
 * An IntersectionObserver callback that calls `load` for an element once it has been
 * intersecting for `delay` ms without leaving, and stops observing it then; leaving
 * before cancels its timer, so it waits again when it comes back.
 */
export function dwellThenLoad(
  load: (el: Element) => void,
  delay = LAZY_DELAY_MS,
  timers: Timers = windowTimers,
): IntersectionObserverCallback {
  const waiting = new Map<Element, number>();
  return (entries, observer) => {
    for (const entry of entries) {
      const el = entry.target;
      const timer = waiting.get(el);
      if (!entry.isIntersecting) {
        if (timer !== undefined) timers.clear(timer);
        waiting.delete(el);
        continue;
      }
      if (timer !== undefined) continue;
      waiting.set(
        el,
        timers.set(() => {
          waiting.delete(el);
          observer.unobserve(el);
          load(el);
        }, delay),
      );
    }
  };
}

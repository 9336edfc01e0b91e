// The metrics queue (spec 000 §7): measures wait until 50 are queued or 1 s has passed
// since the first one, then go in one batch. Timers are injected so tests can drive them.
import { QUEUE_FLUSH_MS, QUEUE_MAX, type MetricKind } from './rules';

export type Metric = { name: string; value: number; type: MetricKind; tags: Record<string, string> };

export type QueueOptions = {
  /** Sends one batch; `keepalive` when the page is going away. */
  send: (metrics: Metric[], keepalive: boolean) => void;
  max?: number;
  delayMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
};

export type MetricQueue = {
  push: (m: Metric) => void;
  /** Sends what waits now (nothing when empty). */
  flush: (keepalive?: boolean) => void;
  size: () => number;
};

export function createMetricQueue(opts: QueueOptions): MetricQueue {
  const max = opts.max ?? QUEUE_MAX;
  const delay = opts.delayMs ?? QUEUE_FLUSH_MS;
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  let items: Metric[] = [];
  let timer: unknown = null;

  function flush(keepalive = false) {
    if (timer !== null) {
      clearTimer(timer);
      timer = null;
    }
    if (items.length === 0) return;
    const batch = items;
    items = [];
    opts.send(batch, keepalive);
  }

  function push(m: Metric) {
    items.push(m);
    if (items.length >= max) flush();
    else if (timer === null) timer = setTimer(() => flush(), delay);
  }

  return { push, flush, size: () => items.length };
}

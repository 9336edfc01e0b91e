// The sale-opening dashboard's live figures: the page is complete as the server rendered
// it; this opens the server-sent event stream its `[data-live-source]` names and writes
// each reading into the marked cells. Every figure is the server's; nothing is computed
// here. The browser's EventSource reconnects by itself when a stream ends.

import type { DashboardFigures as Figures } from '../generated/DashboardFigures';

export type { Figures };

const FIELDS = ['stock', 'held', 'sold', 'available'] as const;

/** Writes `figures` into the elements of `root` that show them. */
export function render(root: ParentNode, figures: Figures): void {
  const set = (el: Element | null, value: string | number) => {
    if (el && el.textContent !== String(value)) el.textContent = String(value);
  };
  for (const key of ['at', 'adds_per_second', 'payments_per_second', 'refused_last_minute', 'failed_last_minute', 'line_length', 'longest_wait_secs'] as const) {
    set(root.querySelector(`[data-live="${key}"]`), figures[key]);
  }
  for (const option of figures.options) {
    const row = root.querySelector(`[data-live-option="${option.id}"]`);
    if (!row) continue;
    for (const field of FIELDS) set(row.querySelector(`[data-field="${field}"]`), option[field]);
  }
}

export function start(): void {
  const source = document.querySelector<HTMLElement>('[data-live-source]');
  const url = source?.dataset.liveSource;
  if (!source || !url || typeof EventSource === 'undefined') return;
  const events = new EventSource(url);
  events.addEventListener('figures', (e) => {
    try {
      render(source, JSON.parse((e as MessageEvent<string>).data) as Figures);
    } catch {
      // A reading that does not parse is dropped; the next one comes a second later.
    }
  });
  window.addEventListener('pagehide', () => events.close(), { once: true });
}

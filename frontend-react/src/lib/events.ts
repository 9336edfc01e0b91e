// The contract between the page modules, the islands (WASM) and the widgets: the events
// and the few window globals they share, typed in one place. Nothing else is global.

/** After in-app navigation swapped in a new page (document). */
export const NAVIGATED = 'rosace:navigated';
/** A route change that failed and fell back to a normal page load (document). */
export const ROUTE_ERROR = 'rosace:route-error';
/** After the enhancement script swapped a region in (the region element; bubbles). */
export const ENHANCED = 'rosace:enhanced';

export interface RouteErrorDetail {
  path: string;
  reason: string;
}

export interface EnhancedDetail {
  /** The region's name (`data-enhance-region`). */
  region: string;
  /** The address the answer came from. */
  url: string;
}

declare global {
  interface DocumentEventMap {
    'rosace:navigated': Event;
    'rosace:route-error': CustomEvent<RouteErrorDetail>;
    'rosace:enhanced': CustomEvent<EnhancedDetail>;
  }
  interface Window {
    /** Set by the WASM module (app/src/lib.rs): hydrates one island of a swapped page. */
    __hydrateIsland?: (island: Element, component: string | undefined) => Promise<unknown>;
    /** Route changes that failed (read by the diagnostics bundle and the browser tests). */
    __rosaceRouteErrors?: number;
  }
}

export function emit<K extends 'rosace:navigated'>(name: K): void;
export function emit<K extends 'rosace:route-error'>(name: K, detail: RouteErrorDetail): void;
export function emit(name: string, detail?: unknown): void {
  document.dispatchEvent(detail === undefined ? new Event(name) : new CustomEvent(name, { detail }));
}

// The diagnostics rules the browser shares with the server (spec 000 §7 "Diagnostics",
// §9 thresholds). The Rust original is app/src/diagnostics/rules.rs; both are tested with
// app/tests/vectors/diagnostics.json (app/tests/rule_vectors.rs, rules.test.ts).

export const APP_NAME = 'rosace-web';
/** The queue is sent when this many measures wait... */
export const QUEUE_MAX = 50;
/** ...or this long after the first one was queued. */
export const QUEUE_FLUSH_MS = 1000;
/** Error reports carry the last 50 breadcrumbs. */
export const BREADCRUMBS_MAX = 50;

export const LEVELS = ['Information', 'Error', 'Fatal', 'Debug', 'Warning'] as const;
export type Level = (typeof LEVELS)[number];
export const KINDS = ['count', 'gauge', 'timing', 'histogram'] as const;
export type MetricKind = (typeof KINDS)[number];
export type Rating = 'good' | 'needs-improvement' | 'poor';

/** (good up to, poor above): milliseconds, CLS without unit. */
export const THRESHOLDS: Record<string, readonly [number, number]> = {
  FCP: [1800, 3000],
  LCP: [2500, 4000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  TTFB: [800, 1800],
  FID: [100, 300],
};

export function isLevel(s: string): s is Level {
  return (LEVELS as readonly string[]).includes(s);
}

export function isKind(s: string): s is MetricKind {
  return (KINDS as readonly string[]).includes(s);
}

/** Good up to and including the first threshold, needs improvement up to and including the
 * second, poor above; null for a name that is not a vital. */
export function rate(name: string, value: number): Rating | null {
  const t = Object.prototype.hasOwnProperty.call(THRESHOLDS, name) ? THRESHOLDS[name] : undefined;
  if (!t) return null;
  if (value <= t[0]) return 'good';
  if (value <= t[1]) return 'needs-improvement';
  return 'poor';
}

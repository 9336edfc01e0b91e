// The tracking library (spec 000 §7 "Diagnostics", §9): `track(name, properties)` queues an
// analytics event; a batch goes to POST /api/tracking/v1/events when 50 wait or 5 s after
// the first; a request gives up after 90 s; a failed batch stays queued and is retried with
// exponential backoff up to 10 min; at most 30 properties per event; a first-party device
// id cookie kept 365 days. Only with the performance consent (C0002, checked again before
// each event and each send) and never in a development shop. The Rust twin of the limits:
// app/src/diagnostics/tracking.rs.
import { XSRF_HEADER, readXsrfToken } from '../lib/xsrf';

export const EVENTS_URL = '/api/tracking/v1/events';
export const BATCH_MAX = 50;
export const FLUSH_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 90_000;
export const RETRY_CEILING_MS = 600_000;
export const PROPERTIES_MAX = 30;
export const DEVICE_COOKIE = 'rosace_tid';
export const DEVICE_COOKIE_DAYS = 365;
/** Events kept while the server cannot be reached; the oldest go first past it. */
export const QUEUE_CAP = 500;
/** A batch's events stay under the server's 64 KiB body (and the keepalive quota). */
const BATCH_BYTES_MAX = 60_000;
const NAME_MAX = 64;
const TEXT_MAX = 256;
const KEY = /^[A-Za-z0-9_.:-]{1,64}$/;

export type Property = string | number | boolean | null;
export type TrackingEvent = {
  name: string;
  timestamp: string;
  properties: Record<string, Property>;
  droppedProperties: number;
};

export type TrackerConfig = { appName: string; appVersion: string; dev: boolean };
export type TrackerDeps = {
  fetch: typeof fetch;
  now?: () => Date;
  /** Whether the performance consent (C0002) is given now. */
  consent?: () => boolean;
  /** `document.cookie`: read, and written one cookie at a time. */
  cookies?: { read: () => string; write: (cookie: string) => void };
  https?: boolean;
  newId?: () => string;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
};

export type Tracker = {
  track: (name: string, properties?: Record<string, unknown>) => void;
  /** Sends what waits now, `keepalive` as the page goes away. */
  flush: (leaving?: boolean) => void;
  size: () => number;
};

/** The performance consent in the consent cookie (`groups=C0001:1,C0002:1,...`). */
export function performanceConsent(cookies: string): boolean {
  const m = cookies.match(/(?:^|; )OptanonConsent=([^;]*)/);
  if (!m) return false;
  return /(?:^|[=&,])C0002:1(?:$|[,&])/.test(m[1].replace(/%3A/gi, ':').replace(/%2C/gi, ',').replace(/%3D/gi, '='));
}

/** Delay before retry number `attempt` (1, 2, ...): 5 s, 10 s, 20 s ... at most 10 min. */
export function backoff(attempt: number): number {
  return Math.min(FLUSH_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 20), RETRY_CEILING_MS);
}

/** The first 30 usable properties in the object's key order (insertion order for names);
 * keys the server would refuse and keys past 30 are dropped and counted. Texts are cut to
 * 256 characters, other values (objects, lists) become text; undefined is left out. */
export function capProperties(input: Record<string, unknown>): { properties: Record<string, Property>; dropped: number } {
  const properties: Record<string, Property> = {};
  let kept = 0;
  let dropped = 0;
  for (const key of Object.keys(input)) {
    const v = input[key];
    if (v === undefined) continue;
    if (kept >= PROPERTIES_MAX || !KEY.test(key)) {
      dropped += 1;
      continue;
    }
    kept += 1;
    if (v === null || typeof v === 'boolean') properties[key] = v;
    else if (typeof v === 'number') properties[key] = Number.isFinite(v) ? v : null;
    else properties[key] = asText(v).slice(0, TEXT_MAX);
  }
  return { properties, dropped };
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return (typeof v === 'object' && JSON.stringify(v)) || String(v);
  } catch {
    return String(v); // a cycle
  }
}

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createTracker(config: TrackerConfig, deps: TrackerDeps): Tracker {
  const now = deps.now ?? (() => new Date());
  const consent = deps.consent ?? (() => performanceConsent(document.cookie));
  const cookies = deps.cookies ?? {
    read: () => document.cookie,
    write: (c: string) => {
      document.cookie = c;
    },
  };
  const https = deps.https ?? location.protocol === 'https:';
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  const cookieTail = `; Path=/; SameSite=Lax${https ? '; Secure' : ''}`;

  let queue: TrackingEvent[] = [];
  /** Events at the head of the queue in the request under way. */
  let inFlight = 0;
  let timer: unknown = null;
  let failures = 0;

  function deviceId(): string {
    const m = cookies.read().match(new RegExp(`(?:^|; )${DEVICE_COOKIE}=([A-Za-z0-9_.:-]{1,64})(?:;|$)`));
    if (m) return m[1];
    const id = (deps.newId ?? randomId)();
    // Set once and not renewed on later visits: the id lives 365 days from its creation.
    cookies.write(`${DEVICE_COOKIE}=${id}; Max-Age=${DEVICE_COOKIE_DAYS * 86_400}${cookieTail}`);
    return id;
  }

  /** Consent withdrawn (in another tab) or a development shop: nothing leaves, nothing kept. */
  function allowed(): boolean {
    if (!config.dev && consent()) return true;
    queue = queue.slice(0, inFlight);
    if (!config.dev && new RegExp(`(?:^|; )${DEVICE_COOKIE}=`).test(cookies.read())) {
      cookies.write(`${DEVICE_COOKIE}=; Max-Age=0${cookieTail}`);
    }
    return false;
  }

  function stopTimer() {
    if (timer !== null) clearTimer(timer);
    timer = null;
  }

  /** The next events to send, at most 50 and about 60 KB (at least one). */
  function take(from: number): TrackingEvent[] {
    const batch: TrackingEvent[] = [];
    let bytes = 0;
    for (let i = from; i < queue.length && batch.length < BATCH_MAX; i++) {
      bytes += JSON.stringify(queue[i]).length + 1;
      if (batch.length > 0 && bytes > BATCH_BYTES_MAX) break;
      batch.push(queue[i]);
    }
    return batch;
  }

  function post(events: TrackingEvent[], keepalive: boolean, signal?: AbortSignal): Promise<Response> {
    const token = readXsrfToken(cookies.read());
    if (!token) return Promise.reject(new Error('no XSRF token yet'));
    // Not navigator.sendBeacon: it cannot send the X-XSRF-TOKEN header every state-changing
    // API call needs. A keepalive fetch outlives the page the same way and can.
    return deps.fetch(EVENTS_URL, {
      method: 'POST',
      credentials: 'same-origin',
      keepalive,
      signal,
      headers: { 'Content-Type': 'application/json', [XSRF_HEADER]: token },
      body: JSON.stringify({ events, deviceId: deviceId(), tags: { appName: config.appName, version: config.appVersion } }),
    });
  }

  function send() {
    stopTimer();
    if (inFlight > 0 || queue.length === 0 || !allowed()) return;
    const batch = take(0);
    inFlight = batch.length;
    const controller = new AbortController();
    const deadline = setTimer(() => controller.abort(), REQUEST_TIMEOUT_MS);
    const done = (outcome: 'sent' | 'refused' | 'failed') => {
      clearTimer(deadline);
      if (outcome === 'failed') failures += 1;
      else {
        // Taken, or refused for good (a 4xx other than 408/429: sending it again cannot help).
        queue.splice(0, inFlight);
        failures = 0;
      }
      inFlight = 0;
      if (failures > 0) {
        stopTimer();
        timer = setTimer(send, backoff(failures));
      } else schedule();
    };
    post(batch, false, controller.signal).then(
      (res) => done(res.ok ? 'sent' : res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429 ? 'refused' : 'failed'),
      () => done('failed'),
    );
  }

  /** After a change: send a full batch now, else within 5 s (unless a retry waits). */
  function schedule() {
    if (inFlight > 0 || failures > 0) return;
    if (queue.length >= BATCH_MAX) send();
    else if (queue.length > 0 && timer === null) timer = setTimer(send, FLUSH_MS);
  }

  function track(name: string, input: Record<string, unknown> = {}) {
    const clean = String(name).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim().slice(0, NAME_MAX);
    if (!clean || !allowed()) return;
    const { properties, dropped } = capProperties(input);
    queue.push({ name: clean, timestamp: now().toISOString(), properties, droppedProperties: dropped });
    // Bounded while the server is away: the oldest waiting (not in flight) events go.
    if (queue.length > QUEUE_CAP) queue.splice(inFlight, queue.length - QUEUE_CAP);
    schedule();
  }

  /** On leaving, everything not in flight goes at once (keepalive; no answer is awaited). */
  function flush(leaving = false) {
    if (!leaving) {
      failures = 0;
      send();
      return;
    }
    if (!allowed()) return;
    while (queue.length > inFlight) {
      const batch = take(inFlight);
      queue.splice(inFlight, batch.length);
      post(batch, true).catch(() => {});
    }
    stopTimer();
    if (failures > 0) failures = 0;
  }

  return { track, flush, size: () => queue.length };
}

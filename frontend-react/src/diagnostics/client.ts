// The diagnostics client: the metrics queue, the frontend log and the error reports with
// their breadcrumbs, posted to the shop's frontend logger with the XSRF header. In a
// development shop (`data-dev="true"` on the script tag) nothing is posted.
import { createBreadcrumbs, type Breadcrumbs } from './breadcrumbs';
import { createMetricQueue, type Metric, type MetricQueue, type QueueOptions } from './queue';
import { isKind, rate, type Level, type MetricKind } from './rules';
import { XSRF_HEADER, readXsrfToken } from '../lib/xsrf';

export const LOG_URL = '/api/frontend-logger/v1/log';
export const METRICS_URL = '/api/frontend-logger/v1/metrics';
/** Error reports sent by one page at most (a loop that throws must not flood). */
export const ERROR_REPORTS_MAX = 10;
const MESSAGE_MAX = 4000;
const STACK_MAX = 4000;
/** The server takes 16 KiB of context; oldest breadcrumbs go first when it is more. */
const CONTEXT_MAX = 15 * 1024;

export type Config = { appName: string; appVersion: string; dev: boolean };
export type Deps = {
  fetch: typeof fetch;
  now?: () => Date;
  timers?: Pick<QueueOptions, 'setTimer' | 'clearTimer'>;
};

export type Diagnostics = {
  metric: (name: string, value: number, type: MetricKind, tags?: Record<string, string>) => void;
  log: (level: Level, message: string, context?: Record<string, unknown>) => void;
  /** An Error log of an uncaught error, with the breadcrumbs. */
  reportError: (message: string, details: Record<string, unknown>) => void;
  breadcrumbs: Breadcrumbs;
  queue: MetricQueue;
};

export function createDiagnostics(config: Config, deps: Deps): Diagnostics {
  const now = deps.now ?? (() => new Date());
  const breadcrumbs = createBreadcrumbs(undefined, now);
  let errorReports = 0;

  function post(url: string, body: unknown, keepalive: boolean) {
    if (config.dev) return;
    const token = readXsrfToken();
    if (!token) return;
    deps
      .fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        keepalive,
        headers: { 'Content-Type': 'application/json', [XSRF_HEADER]: token },
        body: JSON.stringify(body),
      })
      .catch(() => {});
  }

  const queue = createMetricQueue({
    send: (metrics: Metric[], keepalive) =>
      post(METRICS_URL, { metrics, tags: { appName: config.appName, version: config.appVersion } }, keepalive),
    ...deps.timers,
  });

  function metric(name: string, value: number, type: MetricKind, tags: Record<string, string> = {}) {
    if (!isKind(type) || !Number.isFinite(value)) return;
    const rating = rate(name, value);
    queue.push({ name, value, type, tags: rating ? { ...tags, rating } : tags });
  }

  function log(level: Level, message: string, context: Record<string, unknown> = {}) {
    post(
      LOG_URL,
      {
        appName: config.appName,
        appVersion: config.appVersion,
        level,
        message: (message || 'unknown').slice(0, MESSAGE_MAX),
        timestamp: now().toISOString(),
        context,
      },
      false,
    );
  }

  function reportError(message: string, details: Record<string, unknown>) {
    if (errorReports >= ERROR_REPORTS_MAX) return;
    errorReports += 1;
    const crumbs = breadcrumbs.list();
    const context: Record<string, unknown> = { ...details, page: location.pathname, breadcrumbs: crumbs };
    if (typeof context.stack === 'string') context.stack = context.stack.slice(0, STACK_MAX);
    while (crumbs.length > 0 && JSON.stringify(context).length > CONTEXT_MAX) crumbs.shift();
    log('Error', message, context);
  }

  return { metric, log, reportError, breadcrumbs, queue };
}

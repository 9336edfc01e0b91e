// The one way a page module asks the server for HTML: same origin, cookies sent, a time
// limit, and an answer that is a parsed document or an error the caller falls back on.

export interface HtmlAnswer {
  doc: Document;
  /** Where the answer came from, after redirects. */
  url: string;
  /** A redirect was followed (`url` is then not the address asked for). */
  redirected: boolean;
  status: number;
}

export class NotHtml extends Error {}

export async function fetchHtml(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: BodyInit; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<HtmlAnswer> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), init.timeoutMs ?? 15000);
  const signals = [timeout.signal, ...(init.signal ? [init.signal] : [])];
  const signal = AbortSignal.any ? AbortSignal.any(signals) : init.signal ?? timeout.signal;
  try {
    const resp = await fetch(url, {
      method: init.method ?? 'GET',
      body: init.body,
      headers: { Accept: 'text/html' },
      credentials: 'same-origin',
      redirect: 'follow',
      signal,
    });
    const type = resp.headers.get('content-type') ?? '';
    if (!type.startsWith('text/html') || resp.status >= 500) throw new NotHtml(`status ${resp.status}`);
    const text = await resp.text();
    const doc = new DOMParser().parseFromString(text, 'text/html');
    return { doc, url: resp.url || url, redirected: resp.redirected, status: resp.status };
  } finally {
    clearTimeout(timer);
  }
}


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

/** The server answered, but not with a page: a file, JSON, or an error page (5xx). */
export class NotHtml extends Error {
  constructor(readonly status: number) {
    super(`status ${status}`);
  }
}

export async function fetchHtml(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: BodyInit; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<HtmlAnswer> {
  // One signal for the time limit and the caller's: `AbortSignal.any` is missing from
  // older browsers, where the caller's signal alone would have dropped the time limit.
  const both = new AbortController();
  const timer = setTimeout(() => both.abort(), init.timeoutMs ?? 15000);
  if (init.signal?.aborted) both.abort();
  init.signal?.addEventListener('abort', () => both.abort(), { once: true });
  const signal = both.signal;
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
    if (!type.startsWith('text/html') || resp.status >= 500) throw new NotHtml(resp.status);
    const text = await resp.text();
    const doc = new DOMParser().parseFromString(text, 'text/html');
    return { doc, url: resp.url || url, redirected: resp.redirected, status: resp.status };
  } finally {
    clearTimeout(timer);
  }
}


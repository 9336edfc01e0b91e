// HTTP calls of the DSA widget (spec 000 §7): translations and the report itself.
import type { DsaFormRequest } from '../generated/DsaFormRequest';
import type { DsaFormResponse } from '../generated/DsaFormResponse';
import type { DsaFormErrorResponse } from '../generated/DsaFormErrorResponse';
import type { DsaFieldError } from '../generated/DsaFieldError';
import { XSRF_HEADER, readXsrfToken } from '../lib/xsrf';

export const TRANSLATIONS_PATH = '/api/content/v1/translations';
export const DSA_FORM_PATH = '/api/postsale/v1/help/dsacontactform';
export const FALLBACK_LOCALE = 'fr-fr';

export type TranslationTable = Record<string, string>;

export function translationsUrl(locale: string): string {
  const q = new URLSearchParams({ locale, fallbackLocale: FALLBACK_LOCALE, device: 'web' });
  return `${TRANSLATIONS_PATH}?${q.toString()}`;
}

/** GET the translation table of a locale; rejects on any failure. */
export async function fetchTranslations(locale: string, signal?: AbortSignal): Promise<TranslationTable> {
  const res = await fetch(translationsUrl(locale), {
    method: 'GET',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'X-VP-Origin': 'web' },
    signal,
  });
  if (!res.ok) throw new Error(`translations: HTTP ${res.status}`);
  const body: unknown = await res.json();
  const table = (body as { translations?: unknown } | null)?.translations;
  if (!table || typeof table !== 'object') throw new Error('translations: malformed response');
  const out: TranslationTable = {};
  for (const [k, v] of Object.entries(table as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export type SubmitOutcome =
  | { kind: 'submitted'; response: DsaFormResponse | null }
  | { kind: 'invalid'; fieldErrors: DsaFieldError[]; messageKey: string | null }
  | { kind: 'tooManyRequests' }
  | { kind: 'failed'; error: unknown };

/** Builds the multipart body: `payload` = JSON of the request, one `files` part per file. */
export function buildFormData(req: DsaFormRequest, files: readonly File[]): FormData {
  const fd = new FormData();
  fd.append('payload', JSON.stringify(req));
  for (const f of files) fd.append('files', f, f.name);
  return fd;
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

function asErrorResponse(body: unknown): Partial<DsaFormErrorResponse> {
  return body && typeof body === 'object' ? (body as Partial<DsaFormErrorResponse>) : {};
}

/** POSTs the report; never rejects, the outcome says what happened. */
export async function submitDsaForm(req: DsaFormRequest, files: readonly File[]): Promise<SubmitOutcome> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-VP-Origin': 'web' };
  const xsrf = readXsrfToken();
  if (xsrf) headers[XSRF_HEADER] = xsrf;

  let res: Response;
  try {
    res = await fetch(DSA_FORM_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers, // no Content-Type: the browser sets the multipart boundary
      body: buildFormData(req, files),
    });
  } catch (error) {
    return { kind: 'failed', error };
  }

  if (res.status === 201 || res.status === 200) {
    const body = await readJson(res);
    return { kind: 'submitted', response: body && typeof body === 'object' ? (body as DsaFormResponse) : null };
  }
  if (res.status === 429) return { kind: 'tooManyRequests' };
  if (res.status === 400) {
    const body = asErrorResponse(await readJson(res));
    const fieldErrors = Array.isArray(body.fieldErrors)
      ? body.fieldErrors.filter(
          (e): e is DsaFieldError => !!e && typeof e.field === 'string' && typeof e.messageKey === 'string',
        )
      : [];
    const messageKey = typeof body.messageKey === 'string' && body.messageKey ? body.messageKey : null;
    if (fieldErrors.length > 0 || messageKey) return { kind: 'invalid', fieldErrors, messageKey };
  }
  return { kind: 'failed', error: new Error(`HTTP ${res.status} ${res.statusText}`.trim()) };
}

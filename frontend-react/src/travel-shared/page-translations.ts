// The translation table a shop page carries for its own language, shared by every widget.
export type TranslationTable = Record<string, string>;

/** Test hook of end2end/tests/i18n.spec.ts, defined by the test before the page's scripts. */
interface I18nTrace {
  read: Set<string>;
  later: Set<string>;
}

/** The table the shop's page carries for its own language (`<script id="i18n">`), if the
 * widget sits on such a page and the page speaks the widget's language. The page carries
 * only the keys its scripts read: the server ships `needs`, the keys the widget may read
 * (its own bundle's, `Widget` in app/src/site/i18n/page.rs), where it renders the widget.
 * With `window.__i18nTrace` defined (a test), `needs` go to its `later` set and every key
 * read from the table to its `read` set. */
export function pageTranslations(
  locale: string,
  doc: Document = document,
  needs: readonly string[] = [],
): TranslationTable | null {
  const el = doc.getElementById('i18n');
  const lang = (s: string) => s.split(/[-_]/)[0].toLowerCase();
  if (!el?.textContent || lang(doc.documentElement.lang || '') !== lang(locale)) return null;
  let table: TranslationTable;
  try {
    const parsed: unknown = JSON.parse(el.textContent);
    if (!parsed || typeof parsed !== 'object') return null;
    table = parsed as TranslationTable;
  } catch {
    return null;
  }
  const trace = (doc.defaultView as (Window & { __i18nTrace?: I18nTrace }) | null)?.__i18nTrace;
  if (!trace) return table;
  for (const key of needs) trace.later.add(key);
  return new Proxy(table, {
    get(target, key) {
      if (typeof key === 'string') trace.read.add(key);
      return Reflect.get(target, key) as unknown;
    },
  });
}

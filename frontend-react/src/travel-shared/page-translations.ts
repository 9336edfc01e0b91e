// The translation table a shop page carries for its own language, shared by every widget.
export type TranslationTable = Record<string, string>;

/** The table the shop's page carries for its own language (`<script id="i18n">`), if the
 * widget sits on such a page and the page speaks the widget's language. */
export function pageTranslations(locale: string, doc: Document = document): TranslationTable | null {
  const el = doc.getElementById('i18n');
  const lang = (s: string) => s.split(/[-_]/)[0].toLowerCase();
  if (!el?.textContent || lang(doc.documentElement.lang || '') !== lang(locale)) return null;
  try {
    const table: unknown = JSON.parse(el.textContent);
    return table && typeof table === 'object' ? (table as TranslationTable) : null;
  } catch {
    return null;
  }
}

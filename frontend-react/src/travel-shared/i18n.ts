// Texts of the travel widgets: the page's own table (`<script id="i18n">`, which the server
// fills from app/locales/travel-widgets/) when the page speaks the widget's language, else the
// French texts bundled here. The widgets never fetch translations.
import { useMemo } from 'react';
import frBundle from '../../../app/locales/travel-widgets/fr.json';
import { pageTranslations, type TranslationTable } from './page-translations';

export const FALLBACK_TRANSLATIONS: TranslationTable = frBundle;
export const FALLBACK_LOCALE = 'fr-FR';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function makeTranslate(table: TranslationTable | null): Translate {
  return (key, vars) => {
    const text = table?.[key] ?? FALLBACK_TRANSLATIONS[key] ?? key;
    if (!vars) return text;
    return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
  };
}

/** The keys of the bundle under `prefix`: the keys a widget reads (`travel.calendar.`,
 * `travel.map.`), which the server ships with a page that shows it. */
export function bundleKeys(prefix: string): string[] {
  return Object.keys(FALLBACK_TRANSLATIONS).filter((k) => k.startsWith(prefix));
}

/** The translate function of `locale` (the page's table when it speaks that language), for
 * a widget reading the bundle keys under `prefix`. */
export function useTranslate(locale: string, prefix: string): Translate {
  return useMemo(() => makeTranslate(pageTranslations(locale, document, bundleKeys(prefix))), [locale, prefix]);
}

/** A BCP 47 tag Intl accepts (`fr_FR` → `fr-FR`); the page's language, else French, when
 * `locale` is empty or invalid. */
export function resolveLocale(locale: string | null | undefined, doc: Document = document): string {
  for (const candidate of [locale, doc.documentElement.lang]) {
    const tag = candidate?.trim().replace(/_/g, '-');
    if (!tag) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // not a locale: try the next candidate
    }
  }
  return FALLBACK_LOCALE;
}

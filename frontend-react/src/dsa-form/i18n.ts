// Translations of the widget: fetched from the server, with the French texts
// bundled as the fallback (the same file the server merges into its table).
import { useCallback, useEffect, useState } from 'react';
import frBundle from '../../../app/locales/dsa/fr.json';
import { fetchTranslations, type TranslationTable } from './api';
import { pageTranslations } from '../travel-shared/page-translations';

export { pageTranslations };

export const FALLBACK_TRANSLATIONS: TranslationTable = frBundle;
/** The keys the widget reads: its whole bundle, which the server ships with its page. */
const NEEDS = Object.keys(FALLBACK_TRANSLATIONS);

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export interface Translations {
  loading: boolean;
  t: Translate;
  has: (key: string) => boolean;
}

function interpolate(text: string, vars?: Record<string, string | number>): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export function makeTranslate(table: TranslationTable | null): Pick<Translations, 't' | 'has'> {
  const lookup = (key: string): string | undefined => table?.[key] ?? FALLBACK_TRANSLATIONS[key];
  return {
    t: (key, vars) => interpolate(lookup(key) ?? key, vars),
    has: (key) => lookup(key) !== undefined,
  };
}

/** The page's table when it has one; otherwise loads the table of `locale` on mount, and on
 * failure logs and keeps the bundled French texts. */
export function useTranslations(locale: string): Translations {
  const [state, setState] = useState<{ loading: boolean; table: TranslationTable | null }>(() => {
    const table = pageTranslations(locale, document, NEEDS);
    return { loading: table === null, table };
  });

  useEffect(() => {
    if (pageTranslations(locale, document, NEEDS)) return;
    let active = true;
    const ctrl = new AbortController();
    setState((s) => (s.loading ? s : { ...s, loading: true }));
    fetchTranslations(locale, ctrl.signal).then(
      (table) => {
        if (active) setState({ loading: false, table });
      },
      (err: unknown) => {
        if (!active) return;
        console.error('Cannot fetch translations', err);
        setState({ loading: false, table: null });
      },
    );
    return () => {
      active = false;
      ctrl.abort();
    };
  }, [locale]);

  const { table } = state;
  const t = useCallback<Translate>((key, vars) => makeTranslate(table).t(key, vars), [table]);
  const has = useCallback((key: string) => makeTranslate(table).has(key), [table]);
  return { loading: state.loading, t, has };
}

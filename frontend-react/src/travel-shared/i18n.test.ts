import { afterEach, describe, expect, it } from 'vitest';
import fr from '../../../app/locales/travel-widgets/fr.json';
import { makeTranslate, resolveLocale } from './i18n';

afterEach(() => {
  document.documentElement.lang = '';
});

describe('makeTranslate', () => {
  it('uses the table, then the bundled French texts, then the key itself', () => {
    const t = makeTranslate({ 'travel.map.label': 'Karte' });
    expect(t('travel.map.label')).toBe('Karte');
    expect(t('travel.calendar.next')).toBe(fr['travel.calendar.next']);
    expect(t('travel.unknown')).toBe('travel.unknown');
  });

  it('fills {placeholders}, leaving unknown ones', () => {
    const t = makeTranslate(null);
    expect(t('travel.calendar.price', { price: '599 €' })).toBe('599 € par personne');
    expect(makeTranslate({ k: '{a} {b}' })('k', { a: 1 })).toBe('1 {b}');
  });
});

describe('resolveLocale', () => {
  it('canonicalises the locale, else takes the page language, else French', () => {
    expect(resolveLocale('de_de')).toBe('de-DE');
    expect(resolveLocale(' nl-BE ')).toBe('nl-BE');
    document.documentElement.lang = 'it-IT';
    expect(resolveLocale('')).toBe('it-IT');
    expect(resolveLocale('not a locale!')).toBe('it-IT');
    document.documentElement.lang = '';
    expect(resolveLocale(null)).toBe('fr-FR');
  });
});

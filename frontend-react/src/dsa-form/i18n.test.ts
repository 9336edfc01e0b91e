import { afterEach, describe, expect, it } from 'vitest';
import { pageTranslations } from './i18n';

function page(lang: string, table: string | null): Document {
  const doc = document.implementation.createHTMLDocument('p');
  doc.documentElement.lang = lang;
  if (table !== null) {
    const el = doc.createElement('script');
    el.type = 'application/json';
    el.id = 'i18n';
    el.textContent = table;
    doc.body.appendChild(el);
  }
  return doc;
}

describe('pageTranslations', () => {
  it("uses the table the page carries for the widget's language", () => {
    const doc = page('de-DE', '{"dsa.title":"Inhalt melden"}');
    expect(pageTranslations('de-de', doc)).toEqual({ 'dsa.title': 'Inhalt melden' });
  });

  it('ignores a page in another language, a page without table and a broken table', () => {
    expect(pageTranslations('de-de', page('fr-FR', '{"dsa.title":"Signaler"}'))).toBeNull();
    expect(pageTranslations('de-de', page('de-DE', null))).toBeNull();
    expect(pageTranslations('de-de', page('de-DE', '{broken'))).toBeNull();
  });

  describe('with the end-to-end trace hook (window.__i18nTrace)', () => {
    type Traced = Window & { __i18nTrace?: { read: Set<string>; later: Set<string> } };
    afterEach(() => {
      delete (window as Traced).__i18nTrace;
      document.getElementById('i18n')?.remove();
    });

    it('notes the keys the widget may read and each key it reads, and answers as without', () => {
      const trace = { read: new Set<string>(), later: new Set<string>() };
      (window as Traced).__i18nTrace = trace;
      document.documentElement.lang = 'de-DE';
      const el = document.createElement('script');
      el.type = 'application/json';
      el.id = 'i18n';
      el.textContent = '{"dsaform.title":"Inhalt melden"}';
      document.body.appendChild(el);
      const table = pageTranslations('de-de', document, ['dsaform.title', 'dsaform.submit']);
      expect([...trace.later]).toEqual(['dsaform.title', 'dsaform.submit']);
      expect(trace.read.size).toBe(0);
      expect(table?.['dsaform.title']).toBe('Inhalt melden');
      expect(table?.['dsaform.submit']).toBeUndefined();
      expect([...trace.read]).toEqual(['dsaform.title', 'dsaform.submit']);
    });
  });
});

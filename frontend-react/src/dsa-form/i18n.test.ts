import { describe, expect, it } from 'vitest';
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
});

import { describe, expect, it } from 'vitest';
import de from '../../../app/locales/travel-widgets/de.json';
import es from '../../../app/locales/travel-widgets/es.json';
import fr from '../../../app/locales/travel-widgets/fr.json';
import it_ from '../../../app/locales/travel-widgets/it.json';
import nl from '../../../app/locales/travel-widgets/nl.json';

const bundles: Record<string, Record<string, string>> = { fr, de, es, it: it_, nl };

const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();

// Keys the widgets use (a key missing from a table would show as itself).
const USED_KEYS = [
  'travel.calendar.label',
  'travel.calendar.nav',
  'travel.calendar.previous',
  'travel.calendar.next',
  'travel.calendar.price',
  'travel.calendar.lowest',
  'travel.calendar.sold_out',
  'travel.calendar.no_departure',
  'travel.calendar.selected',
  'travel.calendar.per_person',
  'travel.calendar.empty',
  'travel.map.label',
  'travel.map.pin',
  'travel.map.hint',
  'travel.map.empty',
];

describe('travel widget translation bundles', () => {
  it('have the same keys in every language', () => {
    const frKeys = Object.keys(fr).sort();
    for (const [lang, table] of Object.entries(bundles)) {
      expect(Object.keys(table).sort(), lang).toEqual(frKeys);
    }
  });

  it('contain every key the widgets use, and only travel.calendar. / travel.map. keys', () => {
    expect(Object.keys(fr).sort()).toEqual([...USED_KEYS].sort());
    for (const key of Object.keys(fr)) expect(key).toMatch(/^travel\.(calendar|map)\.[a-z_]+$/);
  });

  it('have a non-empty text for every key, with the placeholders of the French text', () => {
    for (const [lang, table] of Object.entries(bundles)) {
      for (const [key, text] of Object.entries(table)) {
        expect(text.trim().length > 0, `${lang}: ${key}`).toBe(true);
        expect(placeholders(text), `${lang}: ${key}`).toEqual(placeholders((fr as Record<string, string>)[key]!));
      }
    }
  });

  it('are translated, not copies of the French texts', () => {
    for (const [lang, table] of Object.entries(bundles)) {
      if (lang === 'fr') continue;
      for (const key of ['travel.calendar.label', 'travel.calendar.sold_out', 'travel.map.label', 'travel.map.hint']) {
        expect(table[key], `${lang}: ${key}`).not.toBe((fr as Record<string, string>)[key]);
      }
    }
  });
});

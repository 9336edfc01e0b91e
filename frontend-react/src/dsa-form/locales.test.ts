import { describe, expect, it } from 'vitest';
import de from '../../../app/locales/dsa/de.json';
import es from '../../../app/locales/dsa/es.json';
import fr from '../../../app/locales/dsa/fr.json';
import it_ from '../../../app/locales/dsa/it.json';
import nl from '../../../app/locales/dsa/nl.json';
import { DSA_REASONS, MADE_AS_VALUES } from './rules';

const bundles: Record<string, Record<string, string>> = { fr, de, es, it: it_, nl };

const REQUIRED_KEYS = [
  'dsaform.message.security',
  'dsaform.message.success',
  'errors.general_retry.notification',
  'dsaform.files.limits',
  'dsaform.error.required',
  'dsaform.error.email',
  'dsaform.error.description_length',
  'dsaform.error.concerns',
  'dsaform.error.madeas',
  'dsaform.error.notification_checkbox',
  'dsaform.error.file_count',
  'dsaform.error.file_size',
  'dsaform.error.file_type',
  'dsaform.error.upload_quota', // server: the client's files of the day (review N2)
  'dsaform.error.storage_full', // server: the shop's storage nearly full
  'dsaform.error.reg_number',
  'dsaform.error.too_long', // server: short text fields over their maximum length
  'dsaform.error.invalid', // widget: a field error whose key is unknown
  'dsaform.message.invalid', // server: unreadable payload
  ...DSA_REASONS.map((r) => `dsaform.reason.${r}`),
  ...MADE_AS_VALUES.map((n) => `dsaform.madeas.${n}`),
];

describe('DSA translation bundles', () => {
  it('contain every required key with a non-empty text, in every language', () => {
    for (const [lang, table] of Object.entries(bundles)) {
      for (const key of REQUIRED_KEYS) {
        expect(table[key]?.trim(), `${lang}: ${key}`).toBeTruthy();
      }
    }
  });

  it('have the same keys in every language, all prefixed dsaform. (or the shared retry key)', () => {
    const frKeys = Object.keys(fr).sort();
    for (const [lang, table] of Object.entries(bundles)) {
      expect(Object.keys(table).sort(), lang).toEqual(frKeys);
      for (const [key, text] of Object.entries(table)) {
        expect(key.startsWith('dsaform.') || key === 'errors.general_retry.notification', key).toBe(true);
        expect(typeof text === 'string' && text.trim().length > 0, `${lang}: ${key}`).toBe(true);
      }
    }
  });

  it('are translated, not copies of the French texts', () => {
    for (const [lang, table] of Object.entries(bundles)) {
      if (lang === 'fr') continue;
      expect(table['dsaform.message.security']).not.toBe(fr['dsaform.message.security']);
      expect(table['dsaform.submit']).not.toBe(fr['dsaform.submit']);
    }
  });

  it('state the attachment limits', () => {
    for (const table of Object.values(bundles)) {
      expect(table['dsaform.files.limits']).toMatch(/3/);
      expect(table['dsaform.files.limits']).toMatch(/5/);
      expect(table['dsaform.files.limits']).toMatch(/PDF/i);
    }
  });
});

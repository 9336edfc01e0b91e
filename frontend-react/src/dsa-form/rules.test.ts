import { describe, expect, it } from 'vitest';
// The shared vectors: the Rust side checks the same file.
import emailVectors from '../../../app/tests/vectors/email.json';
import formVectors from '../../../app/tests/vectors/dsa_form.json';
import type { DsaFormRequest } from '../generated/DsaFormRequest';
import {
  DSA_REASONS,
  MAX_FILE_BYTES,
  buildRequest,
  firstErrorField,
  isValidEmail,
  validateDsaForm,
  validateFiles,
  type DsaFormValues,
} from './rules';

const VALID_VALUES: DsaFormValues = {
  selectedMadeAs: 1,
  selectedConcerns: ['HATRED'],
  description: 'This product page contains hateful statements.',
  lastName: 'Martin',
  denomination: '',
  selectedRegOffice: '',
  copyrightRegNumber: '',
  copyrightReportNumber: '',
  email: 'jane.doe@example.com',
  agreementSellerPartner: false,
  isNotificationSubmitChecked: true,
};

const request = (over: Partial<DsaFormValues> = {}) => buildRequest({ ...VALID_VALUES, ...over }, { siteId: 1 });
const file = (name: string, type: string, size = 10) => ({ name, type, size });

describe('email rule (shared vectors)', () => {
  it('has vectors on both sides', () => {
    expect(emailVectors.valid.length).toBeGreaterThan(0);
    expect(emailVectors.invalid.length).toBeGreaterThan(0);
  });

  it.each(emailVectors.valid)('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each(emailVectors.invalid)('rejects %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

/** The base request with the case's fields over it; `{repeat, times}` is a long text. */
function overlaid(over: Record<string, unknown>): DsaFormRequest {
  const req: Record<string, unknown> = { ...formVectors.base };
  for (const [k, v] of Object.entries(over)) {
    const long = v as { repeat?: string; times?: number } | null;
    req[k] = long && typeof long === 'object' && 'repeat' in long ? long.repeat!.repeat(long.times!) : v;
  }
  return req as DsaFormRequest;
}

describe('the report form checks (shared vectors)', () => {
  it('has cases', () => expect(formVectors.cases.length).toBeGreaterThan(10));

  it.each(formVectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(validateDsaForm(overlaid(c.over))).toEqual(c.errors);
  });
});

describe('validateDsaForm', () => {
  it('accepts a complete report by an individual', () => {
    expect(validateDsaForm(request())).toEqual({});
  });

  it('reports every missing required field of an empty form', () => {
    const empty = buildRequest(
      { ...VALID_VALUES, selectedMadeAs: 0, selectedConcerns: [], description: '', lastName: '', email: '', isNotificationSubmitChecked: false },
      { siteId: 1 },
    );
    expect(validateDsaForm(empty)).toEqual({
      selectedMadeAs: 'dsaform.error.madeas',
      selectedConcerns: 'dsaform.error.concerns',
      description: 'dsaform.error.required',
      email: 'dsaform.error.required',
      isNotificationSubmitChecked: 'dsaform.error.notification_checkbox',
    });
  });

  it('checks the email format', () => {
    expect(validateDsaForm(request({ email: 'jane@example' })).email).toBe('dsaform.error.email');
  });

  it('bounds the description to 20..5000 characters (trimmed, code points)', () => {
    expect(validateDsaForm(request({ description: 'x'.repeat(19) })).description).toBe('dsaform.error.description_length');
    expect(validateDsaForm(request({ description: `  ${'x'.repeat(19)}   ` })).description).toBe(
      'dsaform.error.description_length',
    );
    expect(validateDsaForm(request({ description: 'x'.repeat(20) })).description).toBeUndefined();
    expect(validateDsaForm(request({ description: 'x'.repeat(5000) })).description).toBeUndefined();
    expect(validateDsaForm(request({ description: 'x'.repeat(5001) })).description).toBe('dsaform.error.description_length');
    // 20 emoji are 40 UTF-16 units but 20 characters.
    expect(validateDsaForm(request({ description: '😀'.repeat(20) })).description).toBeUndefined();
    expect(validateDsaForm(request({ description: '😀'.repeat(19) })).description).toBe('dsaform.error.description_length');
  });

  it('requires the last name for an individual only', () => {
    expect(validateDsaForm(request({ lastName: '  ' })).lastName).toBe('dsaform.error.required');
    expect(validateDsaForm(request({ selectedMadeAs: 2, lastName: '', denomination: 'ACME' }))).toEqual({});
  });

  it('requires the organisation name for a trusted flagger and a legal person', () => {
    expect(validateDsaForm(request({ selectedMadeAs: 2 })).denomination).toBe('dsaform.error.required');
    const legal = validateDsaForm(request({ selectedMadeAs: 3 }));
    expect(legal.denomination).toBe('dsaform.error.required');
    expect(legal.selectedRegOffice).toBe('dsaform.error.required');
    expect(validateDsaForm(request({ selectedMadeAs: 3, denomination: 'ACME SA', selectedRegOffice: 'France' }))).toEqual({});
  });

  it('requires a registration number for trademark, design and patent reasons only', () => {
    for (const reason of ['COPYRIGHT_TRADEMARK', 'COPYRIGHT_DESIGN', 'COPYRIGHT_PATENT'] as const) {
      expect(validateDsaForm(request({ selectedConcerns: [reason] })).copyrightRegNumber).toBe('dsaform.error.reg_number');
      expect(validateDsaForm(request({ selectedConcerns: [reason], copyrightRegNumber: 'FR123' }))).toEqual({});
    }
    expect(validateDsaForm(request({ selectedConcerns: ['COPYRIGHT_INFRINGEMENT_AUTE'] }))).toEqual({});
  });

  it('bounds the short text fields like the server', () => {
    expect(validateDsaForm(request({ lastName: 'a'.repeat(100) })).lastName).toBeUndefined();
    expect(validateDsaForm(request({ lastName: 'a'.repeat(101) })).lastName).toBe('dsaform.error.too_long');
    expect(validateDsaForm(request({ selectedMadeAs: 2, denomination: 'a'.repeat(201) })).denomination).toBe(
      'dsaform.error.too_long',
    );
    const longEmail = `${'a'.repeat(250)}@example.com`;
    expect(validateDsaForm(request({ email: longEmail })).email).toBe('dsaform.error.too_long');
    // A hidden field is sent empty, so its length does not matter.
    expect(validateDsaForm(request({ denomination: 'a'.repeat(500) }))).toEqual({});
  });

  it('rejects an unknown reporter type', () => {
    expect(validateDsaForm(request({ selectedMadeAs: 4 })).selectedMadeAs).toBe('dsaform.error.madeas');
  });
});

describe('validateFiles', () => {
  it('accepts up to 3 PDF, PNG or JPEG files of at most 5 MB', () => {
    expect(validateFiles([])).toBeNull();
    expect(
      validateFiles([file('a.pdf', 'application/pdf', MAX_FILE_BYTES), file('b.png', 'image/png'), file('c.jpg', 'image/jpeg')]),
    ).toBeNull();
  });

  it('refuses a 4th file', () => {
    expect(validateFiles([1, 2, 3, 4].map((i) => file(`${i}.pdf`, 'application/pdf')))).toBe('dsaform.error.file_count');
  });

  it('refuses a file above 5 MB', () => {
    expect(validateFiles([file('big.pdf', 'application/pdf', MAX_FILE_BYTES + 1)])).toBe('dsaform.error.file_size');
  });

  it('refuses other types', () => {
    expect(validateFiles([file('setup.exe', 'application/x-msdownload')])).toBe('dsaform.error.file_type');
    expect(validateFiles([file('setup.exe', '')])).toBe('dsaform.error.file_type');
    expect(validateFiles([file('a.gif', 'image/gif')])).toBe('dsaform.error.file_type');
  });

  it('is part of the form validation', () => {
    expect(validateDsaForm(request(), [file('big.png', 'image/png', 6 * 1024 * 1024)]).files).toBe('dsaform.error.file_size');
  });
});

describe('buildRequest', () => {
  it('trims, orders the reasons and blanks the fields hidden for the reporter type', () => {
    const req = buildRequest(
      {
        ...VALID_VALUES,
        selectedConcerns: ['HATRED', 'COPYRIGHT_TRADEMARK', 'HATRED'],
        lastName: '  Martin ',
        denomination: 'left over from another choice',
        copyrightRegNumber: ' FR123 ',
        email: ' jane.doe@example.com ',
      },
      { siteId: 7, saleId: 42 },
    );
    expect(req).toEqual({
      siteId: 7,
      saleId: 42,
      selectedMadeAs: 1,
      selectedConcerns: ['COPYRIGHT_TRADEMARK', 'HATRED'],
      description: 'This product page contains hateful statements.',
      lastName: 'Martin',
      denomination: '',
      copyrightRegNumber: 'FR123',
      copyrightReportNumber: '',
      selectedRegOffice: '',
      email: 'jane.doe@example.com',
      agreementSellerPartner: false,
      isNotificationSubmitChecked: true,
    });
    expect('productId' in req).toBe(false);
  });

  it('lists the 11 reasons of the spec', () => {
    expect(DSA_REASONS).toHaveLength(11);
    expect(new Set(DSA_REASONS).size).toBe(11);
  });

  it('finds the first field in form order', () => {
    expect(firstErrorField({ email: 'x', selectedMadeAs: 'y' })).toBe('selectedMadeAs');
    expect(firstErrorField({})).toBeUndefined();
  });
});

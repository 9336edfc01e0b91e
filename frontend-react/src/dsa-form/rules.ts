// Validation of the report-illegal-content (DSA) form. Pure functions, no DOM.
// A twin of the server's checks (app/src/dsa/rules.rs `validate`, the limits of
// app/src/model/dsa.rs), listed in docs/frontend.md: both are tested against
// app/tests/vectors/dsa_form.json. The client validates exactly the `DsaFormRequest`
// object it is about to send.
import type { DsaReason } from '../generated/DsaReason';
import type { DsaFormRequest } from '../generated/DsaFormRequest';

/** The 11 report reasons, in display order (the spec's order). */
export const DSA_REASONS: readonly DsaReason[] = [
  'VIOLATION_CONSUMER_RIGHTS',
  'MARKETING_WITHDRAW',
  'MARKETING_PROHIBITED',
  'COPYRIGHT_TRADEMARK',
  'COPYRIGHT_DESIGN',
  'COPYRIGHT_PATENT',
  'PRIVATE_RIGHTS',
  'DISTRIBUTION_RIGHTS',
  'HATRED',
  'ANOTHER_REASON',
  'COPYRIGHT_INFRINGEMENT_AUTE',
];

/** Registered intellectual-property rights: a registration number is required. */
export const REGISTERED_RIGHT_REASONS: readonly DsaReason[] = [
  'COPYRIGHT_TRADEMARK',
  'COPYRIGHT_DESIGN',
  'COPYRIGHT_PATENT',
];

/** Reasons for which the copyright fields (registration / report number) are shown. */
export const COPYRIGHT_REASONS: readonly DsaReason[] = [
  ...REGISTERED_RIGHT_REASONS,
  'COPYRIGHT_INFRINGEMENT_AUTE',
];

/** Reporter types ("made as"). */
export const MADE_AS_PARTICULAR = 1;
export const MADE_AS_FLAGGER = 2;
export const MADE_AS_LEGAL_PERSON = 3;
export const MADE_AS_VALUES: readonly number[] = [MADE_AS_PARTICULAR, MADE_AS_FLAGGER, MADE_AS_LEGAL_PERSON];

export const DESCRIPTION_MIN = 20;
export const DESCRIPTION_MAX = 5000;
export const MAX_FILES = 3;
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const ALLOWED_FILE_TYPES: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg'];

/** Maximum lengths (characters) of the short text fields, as the server checks them. */
export const MAX_LENGTHS = {
  lastName: 100,
  denomination: 200,
  selectedRegOffice: 100,
  copyrightRegNumber: 100,
  copyrightReportNumber: 100,
  email: 254,
} as const satisfies Partial<Record<keyof DsaFormRequest, number>>;

/** Spec 000 §5; the same pattern as the server, checked against app/tests/vectors/email.json. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/** Length in Unicode scalar values, as Rust's `str::chars().count()`. */
export function textLength(value: string): number {
  return Array.from(value).length;
}

/** Wire names of the form fields; field errors are keyed by them. */
export type DsaFieldName =
  | 'selectedMadeAs'
  | 'selectedConcerns'
  | 'description'
  | 'lastName'
  | 'denomination'
  | 'selectedRegOffice'
  | 'copyrightRegNumber'
  | 'copyrightReportNumber'
  | 'email'
  | 'agreementSellerPartner'
  | 'isNotificationSubmitChecked'
  | 'files';

/** Field names in the order they appear in the form (first error gets the focus). */
export const FIELD_ORDER: readonly DsaFieldName[] = [
  'selectedMadeAs',
  'lastName',
  'denomination',
  'selectedRegOffice',
  'selectedConcerns',
  'copyrightRegNumber',
  'copyrightReportNumber',
  'description',
  'files',
  'email',
  'agreementSellerPartner',
  'isNotificationSubmitChecked',
];

export function isFieldName(name: string): name is DsaFieldName {
  return (FIELD_ORDER as readonly string[]).includes(name);
}

/** Field name → translation key of its error. */
export type FieldErrors = Partial<Record<DsaFieldName, string>>;

/** What the file checks need from a `File`. */
export interface FileInfo {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

export function needsRegNumber(concerns: readonly DsaReason[]): boolean {
  return concerns.some((c) => REGISTERED_RIGHT_REASONS.includes(c));
}

export function showsCopyrightFields(concerns: readonly DsaReason[]): boolean {
  return concerns.some((c) => COPYRIGHT_REASONS.includes(c));
}

/** Which fields the form shows for a reporter type and a set of reasons. */
export function isFieldVisible(field: DsaFieldName, madeAs: number, concerns: readonly DsaReason[]): boolean {
  switch (field) {
    case 'lastName':
      return madeAs === MADE_AS_PARTICULAR;
    case 'denomination':
      return madeAs === MADE_AS_FLAGGER || madeAs === MADE_AS_LEGAL_PERSON;
    case 'selectedRegOffice':
      return madeAs === MADE_AS_LEGAL_PERSON;
    case 'copyrightRegNumber':
    case 'copyrightReportNumber':
      return showsCopyrightFields(concerns);
    default:
      return true;
  }
}

/** First problem of a file selection (translation key), or null when it is acceptable. */
export function validateFiles(files: readonly FileInfo[]): string | null {
  if (files.length > MAX_FILES) return 'dsaform.error.file_count';
  if (files.some((f) => !ALLOWED_FILE_TYPES.includes(f.type))) return 'dsaform.error.file_type';
  if (files.some((f) => f.size > MAX_FILE_BYTES)) return 'dsaform.error.file_size';
  return null;
}

/** Raw values of the form controls. */
export interface DsaFormValues {
  selectedMadeAs: number; // 0 = none chosen yet
  selectedConcerns: readonly DsaReason[];
  description: string;
  lastName: string;
  denomination: string;
  selectedRegOffice: string;
  copyrightRegNumber: string;
  copyrightReportNumber: string;
  email: string;
  agreementSellerPartner: boolean;
  isNotificationSubmitChecked: boolean;
}

export interface DsaContext {
  siteId: number;
  saleId?: number;
  productId?: number;
}

/**
 * The request object sent as the `payload` part: text trimmed, reasons in
 * canonical order without duplicates, fields hidden for the chosen reporter
 * type / reasons sent empty.
 */
export function buildRequest(values: DsaFormValues, ctx: DsaContext): DsaFormRequest {
  const madeAs = values.selectedMadeAs;
  const concerns = DSA_REASONS.filter((r) => values.selectedConcerns.includes(r));
  const visible = (f: DsaFieldName) => isFieldVisible(f, madeAs, concerns);
  const text = (f: DsaFieldName, v: string) => (visible(f) ? v.trim() : '');
  const req: DsaFormRequest = {
    siteId: ctx.siteId,
    selectedMadeAs: madeAs,
    selectedConcerns: concerns,
    description: values.description.trim(),
    lastName: text('lastName', values.lastName),
    denomination: text('denomination', values.denomination),
    copyrightRegNumber: text('copyrightRegNumber', values.copyrightRegNumber),
    copyrightReportNumber: text('copyrightReportNumber', values.copyrightReportNumber),
    selectedRegOffice: text('selectedRegOffice', values.selectedRegOffice),
    email: values.email.trim(),
    agreementSellerPartner: values.agreementSellerPartner,
    isNotificationSubmitChecked: values.isNotificationSubmitChecked,
  };
  if (ctx.saleId !== undefined) req.saleId = ctx.saleId;
  if (ctx.productId !== undefined) req.productId = ctx.productId;
  return req;
}

/**
 * Validates a request (and its attachments) the way the server does.
 * Returns an empty object when the report can be sent.
 */
export function validateDsaForm(req: DsaFormRequest, files: readonly FileInfo[] = []): FieldErrors {
  const errors: FieldErrors = {};
  const blank = (s: string) => s.trim() === '';

  if (!MADE_AS_VALUES.includes(req.selectedMadeAs)) errors.selectedMadeAs = 'dsaform.error.madeas';

  if (req.selectedConcerns.length === 0 || req.selectedConcerns.some((c) => !DSA_REASONS.includes(c))) {
    errors.selectedConcerns = 'dsaform.error.concerns';
  }

  if (blank(req.description)) {
    errors.description = 'dsaform.error.required';
  } else {
    const len = textLength(req.description.trim());
    if (len < DESCRIPTION_MIN || len > DESCRIPTION_MAX) errors.description = 'dsaform.error.description_length';
  }

  if (req.selectedMadeAs === MADE_AS_PARTICULAR && blank(req.lastName)) errors.lastName = 'dsaform.error.required';
  if (
    (req.selectedMadeAs === MADE_AS_FLAGGER || req.selectedMadeAs === MADE_AS_LEGAL_PERSON) &&
    blank(req.denomination)
  ) {
    errors.denomination = 'dsaform.error.required';
  }
  if (req.selectedMadeAs === MADE_AS_LEGAL_PERSON && blank(req.selectedRegOffice)) {
    errors.selectedRegOffice = 'dsaform.error.required';
  }

  if (needsRegNumber(req.selectedConcerns) && blank(req.copyrightRegNumber)) {
    errors.copyrightRegNumber = 'dsaform.error.reg_number';
  }

  if (blank(req.email)) errors.email = 'dsaform.error.required';
  else if (!isValidEmail(req.email.trim())) errors.email = 'dsaform.error.email';

  if (!req.isNotificationSubmitChecked) errors.isNotificationSubmitChecked = 'dsaform.error.notification_checkbox';

  for (const [field, max] of Object.entries(MAX_LENGTHS) as [keyof typeof MAX_LENGTHS, number][]) {
    if (errors[field] === undefined && textLength(req[field]) > max) errors[field] = 'dsaform.error.too_long';
  }

  const fileError = validateFiles(files);
  if (fileError) errors.files = fileError;

  return errors;
}

/** First field with an error, in form order. */
export function firstErrorField(errors: FieldErrors): DsaFieldName | undefined {
  return FIELD_ORDER.find((f) => errors[f] !== undefined);
}

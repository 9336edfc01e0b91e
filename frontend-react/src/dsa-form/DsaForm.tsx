// The report-illegal-content (DSA) form: spec 000 §3, §4 "Report form", §7, §8.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { DsaReason } from '../generated/DsaReason';
import { submitDsaForm } from './api';
import { useTranslations, type Translate } from './i18n';
import {
  ALLOWED_FILE_TYPES,
  DESCRIPTION_MAX,
  DSA_REASONS,
  MADE_AS_VALUES,
  buildRequest,
  isFieldName,
  isFieldVisible,
  needsRegNumber,
  textLength,
  validateDsaForm,
  validateFiles,
  type DsaFieldName,
  type DsaFormValues,
  type FieldErrors,
} from './rules';

export interface DsaFormProps {
  siteId: number;
  /** Translation locale, e.g. `fr-fr`. */
  locale: string;
  saleId?: number;
  productId?: number;
}

type Status = 'idle' | 'loading' | 'submitted';

const GENERAL_RETRY = 'errors.general_retry.notification';
const TOO_MANY = 'dsaform.message.security';
const UNKNOWN_FIELD_ERROR = 'dsaform.error.invalid';

const INITIAL_VALUES: DsaFormValues = {
  selectedMadeAs: 0,
  selectedConcerns: [],
  description: '',
  lastName: '',
  denomination: '',
  selectedRegOffice: '',
  copyrightRegNumber: '',
  copyrightReportNumber: '',
  email: '',
  agreementSellerPartner: false,
  isNotificationSubmitChecked: false,
};

type TextFieldName =
  | 'description'
  | 'lastName'
  | 'denomination'
  | 'selectedRegOffice'
  | 'copyrightRegNumber'
  | 'copyrightReportNumber'
  | 'email';

/** Normalises a server field path such as `files[0]` or `selectedConcerns.1`. */
function baseFieldName(field: string): string {
  return field.replace(/[[.].*$/, '');
}

function sameFile(a: File, b: File): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified && a.type === b.type;
}

function formatMegabytes(bytes: number, locale: string): string {
  const mb = bytes / (1024 * 1024);
  try {
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(mb);
  } catch {
    return mb.toFixed(1);
  }
}

export function DsaForm({ siteId, locale, saleId, productId }: DsaFormProps) {
  const { loading, t, has } = useTranslations(locale);
  if (loading) {
    return (
      <div className="dsa dsa-loading" role="status" aria-busy="true" aria-label={t('dsaform.loading')}>
        <span className="dsa-spinner" aria-hidden="true" />
      </div>
    );
  }
  return <DsaFormBody t={t} has={has} locale={locale} siteId={siteId} saleId={saleId} productId={productId} />;
}

interface BodyProps extends DsaFormProps {
  t: Translate;
  has: (key: string) => boolean;
}

function DsaFormBody({ t, has, locale, siteId, saleId, productId }: BodyProps) {
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const errId = (name: string) => `${uid}-${name}-error`;

  const [values, setValues] = useState<DsaFormValues>(INITIAL_VALUES);
  const [files, setFiles] = useState<File[]>([]);
  const [fileRejection, setFileRejection] = useState<string | null>(null);
  const [validated, setValidated] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [messages, setMessages] = useState<string[]>([]);
  const [status, setStatus] = useState<Status>('idle');

  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const focusFirstError = useRef(false);

  const request = useMemo(
    () => buildRequest(values, { siteId, saleId, productId }),
    [values, siteId, saleId, productId],
  );
  // Client errors are shown once the user has tried to submit, then kept up to date.
  const clientErrors = useMemo(() => (validated ? validateDsaForm(request, files) : {}), [validated, request, files]);

  const visible = (f: DsaFieldName) => isFieldVisible(f, values.selectedMadeAs, values.selectedConcerns);
  const errorOf = (f: DsaFieldName): string | undefined =>
    (f === 'files' ? (fileRejection ?? undefined) : undefined) ?? clientErrors[f] ?? serverErrors[f];

  useLayoutEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });

  useEffect(() => {
    if (status === 'submitted') successRef.current?.focus();
  }, [status]);

  /** A user edit of `field`: the server's verdict about it no longer applies. */
  const touched = (field: DsaFieldName) => {
    setServerErrors((e) => {
      if (!(field in e)) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
  };

  const setText = (field: TextFieldName) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    touched(field);
  };

  const setMadeAs = (e: ChangeEvent<HTMLInputElement>) => {
    const value = Number(e.target.value);
    setValues((v) => ({ ...v, selectedMadeAs: value }));
    touched('selectedMadeAs');
  };

  const toggleConcern = (reason: DsaReason) => (e: ChangeEvent<HTMLInputElement>) => {
    const checked = e.target.checked;
    setValues((v) => ({
      ...v,
      selectedConcerns: checked
        ? DSA_REASONS.filter((r) => r === reason || v.selectedConcerns.includes(r))
        : v.selectedConcerns.filter((r) => r !== reason),
    }));
    touched('selectedConcerns');
  };

  const setFlag = (field: 'agreementSellerPartner' | 'isNotificationSubmitChecked') => (e: ChangeEvent<HTMLInputElement>) => {
    const checked = e.target.checked;
    setValues((v) => ({ ...v, [field]: checked }));
    touched(field);
  };

  const addFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(e.target.files ?? []);
    if (picked.length === 0) return;
    const candidate = [...files];
    for (const f of picked) if (!candidate.some((c) => sameFile(c, f))) candidate.push(f);
    const problem = validateFiles(candidate);
    if (problem) {
      setFileRejection(problem); // refused: the selection is left as it was
    } else {
      setFileRejection(null);
      setFiles(candidate);
    }
    touched('files');
    // Let the same file be picked again after a removal or a refusal.
    if (fileInputRef.current) fileInputRef.current.value = '';
  };

  const removeFile = (index: number) => {
    setFiles((fs) => fs.filter((_, i) => i !== index));
    setFileRejection(null);
    touched('files');
    fileInputRef.current?.focus();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (status === 'loading') return;
    setValidated(true);
    setServerErrors({});
    setMessages([]);
    setFileRejection(null);
    const errors = validateDsaForm(request, files);
    if (Object.keys(errors).length > 0) {
      focusFirstError.current = true;
      return;
    }

    setStatus('loading');
    const outcome = await submitDsaForm(request, files);
    switch (outcome.kind) {
      case 'submitted':
        setStatus('submitted');
        return;
      case 'tooManyRequests':
        setMessages([TOO_MANY]);
        break;
      case 'invalid': {
        const byField: FieldErrors = {};
        const top: string[] = [];
        for (const fe of outcome.fieldErrors) {
          const key = has(fe.messageKey) ? fe.messageKey : UNKNOWN_FIELD_ERROR;
          const field = baseFieldName(fe.field);
          if (isFieldName(field) && visible(field)) {
            byField[field] ??= key;
          } else {
            top.push(key);
          }
        }
        if (outcome.fieldErrors.length === 0) {
          top.push(outcome.messageKey && has(outcome.messageKey) ? outcome.messageKey : GENERAL_RETRY);
        }
        setServerErrors(byField);
        setMessages(top);
        focusFirstError.current = Object.keys(byField).length > 0;
        break;
      }
      case 'failed':
        console.error('DsaForm setDsaForm error', outcome.error);
        setMessages([GENERAL_RETRY]);
        break;
    }
    setStatus('idle');
  };

  if (status === 'submitted') {
    return (
      <div className="dsa">
        <div className="dsa-success" role="status" data-testid="dsa-success" tabIndex={-1} ref={successRef}>
          <span className="dsa-success-icon" aria-hidden="true" />
          <p>{t('dsaform.message.success')}</p>
        </div>
      </div>
    );
  }

  const loading = status === 'loading';

  const fieldError = (f: DsaFieldName): ReactNode => {
    const key = errorOf(f);
    if (!key) return null;
    return (
      <p className="dsa-field-error" id={errId(f)} role="alert" data-error-for={f}>
        {t(key)}
      </p>
    );
  };

  /** aria attributes of a control of field `f`, with optional extra description ids. */
  const aria = (f: DsaFieldName, ...describedBy: string[]) => {
    const invalid = errorOf(f) !== undefined;
    const ids = [...describedBy, ...(invalid ? [errId(f)] : [])];
    return {
      'aria-invalid': invalid,
      'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
    } as const;
  };

  const textField = (
    f: TextFieldName,
    labelKey: string,
    opts: { required?: boolean; type?: string; autoComplete?: string; inputMode?: 'text' | 'email' } = {},
  ) => {
    const required = opts.required ?? true;
    return (
      <div className="dsa-field">
        <label htmlFor={id(f)}>
          {t(labelKey)}
          {!required && <span className="dsa-optional"> {t('dsaform.field.optional')}</span>}
        </label>
        <input
          id={id(f)}
          name={f}
          type={opts.type ?? 'text'}
          value={values[f]}
          onChange={setText(f)}
          autoComplete={opts.autoComplete ?? 'off'}
          inputMode={opts.inputMode}
          aria-required={required || undefined}
          {...aria(f)}
        />
        {fieldError(f)}
      </div>
    );
  };

  const descLength = textLength(values.description.trim());

  return (
    <div className="dsa">
      <h2 className="dsa-title">{t('dsaform.title')}</h2>
      <p className="dsa-intro">{t('dsaform.intro')}</p>

      {messages.length > 0 && (
        <div className="dsa-message" role="alert" data-testid="dsa-message">
          {messages.map((key, i) => (
            <p key={`${key}-${i}`}>{t(key)}</p>
          ))}
        </div>
      )}

      <form ref={formRef} className="dsa-form" noValidate onSubmit={onSubmit} aria-busy={loading}>
        <fieldset className="dsa-group" aria-describedby={errorOf('selectedMadeAs') ? errId('selectedMadeAs') : undefined}>
          <legend>{t('dsaform.madeas.legend')}</legend>
          <div className="dsa-choices dsa-choices-inline">
            {MADE_AS_VALUES.map((n) => (
              <label key={n} className="dsa-choice">
                <input
                  type="radio"
                  name="selectedMadeAs"
                  value={String(n)}
                  checked={values.selectedMadeAs === n}
                  onChange={setMadeAs}
                  aria-invalid={errorOf('selectedMadeAs') !== undefined}
                />
                <span>{t(`dsaform.madeas.${n}`)}</span>
              </label>
            ))}
          </div>
          {fieldError('selectedMadeAs')}
        </fieldset>

        {visible('lastName') && textField('lastName', 'dsaform.field.lastname', { autoComplete: 'family-name' })}
        {visible('denomination') &&
          textField('denomination', 'dsaform.field.denomination', { autoComplete: 'organization' })}
        {visible('selectedRegOffice') &&
          textField('selectedRegOffice', 'dsaform.field.reg_office', { autoComplete: 'country-name' })}

        <fieldset className="dsa-group" aria-describedby={[id('concerns-hint'), ...(errorOf('selectedConcerns') ? [errId('selectedConcerns')] : [])].join(' ')}>
          <legend>{t('dsaform.concerns.legend')}</legend>
          <p className="dsa-hint" id={id('concerns-hint')}>
            {t('dsaform.concerns.hint')}
          </p>
          <div className="dsa-choices dsa-reasons">
            {DSA_REASONS.map((reason) => (
              <label key={reason} className="dsa-choice">
                <input
                  type="checkbox"
                  name="selectedConcerns"
                  value={reason}
                  checked={values.selectedConcerns.includes(reason)}
                  onChange={toggleConcern(reason)}
                  aria-invalid={errorOf('selectedConcerns') !== undefined}
                />
                <span>{t(`dsaform.reason.${reason}`)}</span>
              </label>
            ))}
          </div>
          {fieldError('selectedConcerns')}
        </fieldset>

        {visible('copyrightRegNumber') &&
          textField('copyrightRegNumber', 'dsaform.field.copyright_reg_number', {
            required: needsRegNumber(values.selectedConcerns),
          })}
        {visible('copyrightReportNumber') &&
          textField('copyrightReportNumber', 'dsaform.field.copyright_report_number', { required: false })}

        <div className="dsa-field">
          <label htmlFor={id('description')}>{t('dsaform.field.description')}</label>
          <p className="dsa-hint" id={id('description-hint')}>
            {t('dsaform.field.description_hint')}
          </p>
          <textarea
            id={id('description')}
            name="description"
            rows={6}
            value={values.description}
            onChange={setText('description')}
            aria-required
            {...aria('description', id('description-hint'), id('description-counter'))}
          />
          <p
            className={`dsa-counter${descLength > DESCRIPTION_MAX ? ' dsa-counter-over' : ''}`}
            id={id('description-counter')}
          >
            {t('dsaform.field.description_counter', { count: descLength, max: DESCRIPTION_MAX })}
          </p>
          {fieldError('description')}
        </div>

        <div className="dsa-field">
          <label htmlFor={id('files')}>
            {t('dsaform.field.files')}
            <span className="dsa-optional"> {t('dsaform.field.optional')}</span>
          </label>
          <input
            ref={fileInputRef}
            id={id('files')}
            name="files"
            type="file"
            multiple
            accept={[...ALLOWED_FILE_TYPES, '.pdf', '.png', '.jpg', '.jpeg'].join(',')}
            onChange={addFiles}
            disabled={loading}
            {...aria('files', id('files-limits'))}
          />
          <p className="dsa-hint" id={id('files-limits')}>
            {t('dsaform.files.limits')}
          </p>
          {files.length > 0 && (
            <ul className="dsa-files" aria-label={t('dsaform.files.selected')}>
              {files.map((f, i) => (
                <li key={`${f.name}-${f.size}-${f.lastModified}`}>
                  <span className="dsa-file-name">{f.name}</span>
                  <span className="dsa-file-size">{t('dsaform.files.size', { size: formatMegabytes(f.size, locale) })}</span>
                  <button
                    type="button"
                    className="dsa-file-remove"
                    onClick={() => removeFile(i)}
                    aria-label={t('dsaform.files.remove_named', { name: f.name })}
                    disabled={loading}
                  >
                    {t('dsaform.files.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {fieldError('files')}
        </div>

        {textField('email', 'dsaform.field.email', { type: 'email', autoComplete: 'email', inputMode: 'email' })}

        <div className="dsa-field dsa-check">
          <label className="dsa-choice">
            <input
              type="checkbox"
              name="agreementSellerPartner"
              checked={values.agreementSellerPartner}
              onChange={setFlag('agreementSellerPartner')}
              {...aria('agreementSellerPartner')}
            />
            <span>
              {t('dsaform.field.agreement_seller_partner')}
              <span className="dsa-optional"> {t('dsaform.field.optional')}</span>
            </span>
          </label>
          {fieldError('agreementSellerPartner')}
        </div>

        <div className="dsa-field dsa-check">
          <label className="dsa-choice">
            <input
              type="checkbox"
              name="isNotificationSubmitChecked"
              checked={values.isNotificationSubmitChecked}
              onChange={setFlag('isNotificationSubmitChecked')}
              aria-required
              {...aria('isNotificationSubmitChecked')}
            />
            <span>{t('dsaform.field.notification_submit')}</span>
          </label>
          {fieldError('isNotificationSubmitChecked')}
        </div>

        <div className="dsa-actions">
          <button type="submit" className="dsa-submit" disabled={loading} aria-busy={loading}>
            {loading && <span className="dsa-spinner dsa-spinner-small" aria-hidden="true" />}
            {t(loading ? 'dsaform.submitting' : 'dsaform.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}

import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fr from '../../../app/locales/dsa/fr.json';
import type { DsaFormRequest } from '../generated/DsaFormRequest';
import type { DsaFormErrorResponse } from '../generated/DsaFormErrorResponse';
import { DsaForm } from './DsaForm';

const T: Record<string, string> = fr;
const DSA_URL = '/api/postsale/v1/help/dsacontactform';

type Responder = (init: RequestInit) => Response | Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Mocks fetch: translations answer with the French bundle, the report with `dsa`. */
function mockFetch(dsa: Responder = () => json({ id: 1, isSubmitted: true }, 201)) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url.startsWith('/api/content/v1/translations?')) return json({ locale: 'fr-fr', translations: fr });
    if (url === DSA_URL) return dsa(init ?? {});
    throw new Error(`unexpected fetch ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const dsaCalls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.filter(([u]) => String(u) === DSA_URL);

async function renderForm(props: Partial<Parameters<typeof DsaForm>[0]> = {}) {
  const utils = render(<DsaForm siteId={1} locale="fr-fr" {...props} />);
  await screen.findByText(T['dsaform.title']);
  return utils;
}

function control<E extends HTMLElement = HTMLInputElement>(name: string, value?: string): E {
  const selector = value === undefined ? `[name="${name}"]` : `[name="${name}"][value="${value}"]`;
  const el = document.querySelector<E>(selector);
  if (!el) throw new Error(`no control ${selector}`);
  return el;
}

function errorFor(field: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-error-for="${field}"]`);
}

function fillValidReport() {
  fireEvent.click(control('selectedMadeAs', '1'));
  fireEvent.change(control('lastName'), { target: { value: 'Martin' } });
  fireEvent.click(control('selectedConcerns', 'HATRED'));
  fireEvent.change(control<HTMLTextAreaElement>('description'), {
    target: { value: 'The product description contains hateful statements.' },
  });
  fireEvent.change(control('email'), { target: { value: 'jane.doe@example.com' } });
  fireEvent.click(control('isNotificationSubmitChecked'));
}

const submitButton = () => screen.getByRole('button', { name: T['dsaform.submit'] });

function pdf(name = 'proof.pdf', size = 1024): File {
  return new File([new Uint8Array(size)], name, { type: 'application/pdf' });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DsaForm', () => {
  it('fetches the translations of its locale, then shows every text translated', async () => {
    const fetchMock = mockFetch();
    const { container } = await renderForm({ locale: 'de-de' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/content/v1/translations?locale=de-de&fallbackLocale=fr-fr&device=web',
      expect.objectContaining({ method: 'GET' }),
    );
    expect(screen.getByText(T['dsaform.reason.COPYRIGHT_INFRINGEMENT_AUTE'])).toBeTruthy();
    // Exact text (it holds no-break spaces, which the default normaliser would collapse).
    expect(screen.getByText(T['dsaform.files.limits'], { normalizer: (s) => s })).toBeTruthy();
    // No untranslated key leaks into the page.
    expect(container.textContent).not.toMatch(/dsaform\.|errors\./);
    for (const el of container.querySelectorAll('[aria-label]')) {
      expect(el.getAttribute('aria-label')).not.toMatch(/dsaform\./);
    }
  });

  it('shows a loading state until the translations arrive', async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((r) => (answer = r))));
    render(<DsaForm siteId={1} locale="fr-fr" />);
    const loading = screen.getByRole('status');
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(document.querySelector('form')).toBeNull();
    await act(async () => answer(json({ locale: 'fr-fr', translations: { 'dsaform.title': 'Titre du serveur' } })));
    expect(await screen.findByText('Titre du serveur')).toBeTruthy();
    // Keys the server lacks fall back to the bundled French texts.
    expect(screen.getByText(T['dsaform.submit'])).toBeTruthy();
  });

  it('falls back to the bundled French texts when the translations cannot be fetched', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn(async () => new Response('boom', { status: 503 })));
    render(<DsaForm siteId={1} locale="nl-nl" />);
    expect(await screen.findByText(T['dsaform.title'])).toBeTruthy();
    expect(error).toHaveBeenCalledWith('Cannot fetch translations', expect.anything());
  });

  it('shows the field errors of an empty form, focuses the first one and sends nothing', async () => {
    const fetchMock = mockFetch();
    await renderForm();
    fireEvent.click(submitButton());
    expect(errorFor('selectedMadeAs')?.textContent).toBe(T['dsaform.error.madeas']);
    expect(errorFor('selectedConcerns')?.textContent).toBe(T['dsaform.error.concerns']);
    expect(errorFor('description')?.textContent).toBe(T['dsaform.error.required']);
    expect(errorFor('email')?.textContent).toBe(T['dsaform.error.required']);
    expect(errorFor('isNotificationSubmitChecked')?.textContent).toBe(T['dsaform.error.notification_checkbox']);
    expect(errorFor('selectedMadeAs')?.getAttribute('role')).toBe('alert');
    expect(document.activeElement).toBe(control('selectedMadeAs', '1'));
    expect(dsaCalls(fetchMock)).toHaveLength(0);
  });

  it('refuses a bad email under the email field and sends no request', async () => {
    const fetchMock = mockFetch();
    await renderForm();
    fillValidReport();
    fireEvent.change(control('email'), { target: { value: 'jane@example' } });
    fireEvent.click(submitButton());

    const err = errorFor('email');
    expect(err?.textContent).toBe(T['dsaform.error.email']);
    expect(err?.getAttribute('role')).toBe('alert');
    const email = control('email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toContain(err?.id);
    expect(document.activeElement).toBe(email);
    // Only the email is wrong.
    expect(document.querySelectorAll('[data-error-for]')).toHaveLength(1);
    expect(dsaCalls(fetchMock)).toHaveLength(0);

    // Fixing it clears the error.
    fireEvent.change(email, { target: { value: 'jane@example.com' } });
    expect(errorFor('email')).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBe('false');
  });

  it('posts a valid report as multipart with the payload, the files and the XSRF header, then shows success on 201', async () => {
    document.cookie = 'XSRF-TOKEN=abc%2Fdef%3D%3D; path=/';
    let answer!: (r: Response) => void;
    const fetchMock = mockFetch(() => new Promise<Response>((r) => (answer = r)));
    await renderForm({ siteId: 3, saleId: 4242, productId: 77 });

    fillValidReport();
    fireEvent.click(control('agreementSellerPartner'));
    const file = pdf('proof.pdf', 2048);
    fireEvent.change(control('files'), { target: { files: [file] } });
    expect(screen.getByText('proof.pdf')).toBeTruthy();
    fireEvent.click(submitButton());

    // Loading: button disabled and busy.
    await waitFor(() => expect(dsaCalls(fetchMock)).toHaveLength(1));
    const button = screen.getByRole('button', { name: T['dsaform.submitting'] }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(document.querySelector('form')?.getAttribute('aria-busy')).toBe('true');

    const [, init] = dsaCalls(fetchMock)[0]!;
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    const headers = new Headers(init?.headers);
    expect(headers.get('X-XSRF-TOKEN')).toBe('abc/def==');
    expect(headers.get('X-VP-Origin')).toBe('web');
    expect(headers.get('Content-Type')).toBeNull(); // the browser sets the multipart boundary

    const body = init?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    const payload = JSON.parse(body.get('payload') as string) as DsaFormRequest;
    expect(payload).toEqual({
      siteId: 3,
      saleId: 4242,
      productId: 77,
      selectedMadeAs: 1,
      selectedConcerns: ['HATRED'],
      description: 'The product description contains hateful statements.',
      lastName: 'Martin',
      denomination: '',
      copyrightRegNumber: '',
      copyrightReportNumber: '',
      selectedRegOffice: '',
      email: 'jane.doe@example.com',
      agreementSellerPartner: true,
      isNotificationSubmitChecked: true,
    } satisfies DsaFormRequest);
    const sent = body.getAll('files') as File[];
    expect(sent).toHaveLength(1);
    expect(sent[0]!.name).toBe('proof.pdf');
    expect(sent[0]!.size).toBe(2048);

    await act(async () => answer(json({ id: 12, isSubmitted: true }, 201)));
    const success = await screen.findByRole('status');
    expect(success.textContent).toBe(T['dsaform.message.success']);
    expect(document.querySelector('form')).toBeNull();
    expect(document.activeElement).toBe(success);
  });

  it('sends no XSRF header when there is no XSRF cookie', async () => {
    const fetchMock = mockFetch();
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    await screen.findByText(T['dsaform.message.success']);
    const [, init] = dsaCalls(fetchMock)[0]!;
    expect(new Headers(init?.headers).has('X-XSRF-TOKEN')).toBe(false);
    expect((init?.body as FormData).getAll('files')).toHaveLength(0);
  });

  it('shows the server field errors of a 400 under their fields, unknown fields at the top', async () => {
    const body: DsaFormErrorResponse = {
      errorCode: 'VALIDATION',
      messageKey: 'dsaform.message.invalid',
      fieldErrors: [
        { field: 'email', messageKey: 'dsaform.error.email' },
        { field: 'somethingElse', messageKey: 'dsaform.error.required' },
      ],
    };
    mockFetch(() => json(body, 400));
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());

    await waitFor(() => expect(errorFor('email')?.textContent).toBe(T['dsaform.error.email']));
    expect(control('email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('dsa-message').textContent).toBe(T['dsaform.error.required']);
    expect(screen.getByTestId('dsa-message').getAttribute('role')).toBe('alert');
    // The form stays usable.
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
    // Editing the field clears the server's verdict about it.
    fireEvent.change(control('email'), { target: { value: 'other@example.com' } });
    expect(errorFor('email')).toBeNull();
  });

  it('maps server paths like files[0] to their field and unknown message keys to a generic text', async () => {
    mockFetch(() =>
      json({ errorCode: 'VALIDATION', messageKey: '', fieldErrors: [{ field: 'files[0]', messageKey: 'server.only.key' }] }, 400),
    );
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    await waitFor(() => expect(errorFor('files')?.textContent).toBe(T['dsaform.error.invalid']));
    expect(screen.queryByTestId('dsa-message')).toBeNull();
  });

  it('shows an unreadable-payload error of the server at the top', async () => {
    mockFetch(() =>
      json(
        {
          errorCode: 'invalid_fields',
          messageKey: 'dsaform.message.invalid',
          fieldErrors: [{ field: 'payload', messageKey: 'dsaform.message.invalid' }],
        } satisfies DsaFormErrorResponse,
        400,
      ),
    );
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    expect((await screen.findByTestId('dsa-message')).textContent).toBe(T['dsaform.message.invalid']);
    expect(document.querySelectorAll('[data-error-for]')).toHaveLength(0);
  });

  it('shows the general retry message on a 400 without field errors', async () => {
    mockFetch(() => new Response('not json', { status: 400 }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    expect((await screen.findByTestId('dsa-message')).textContent).toBe(T['errors.general_retry.notification']);
  });

  it('shows dsaform.message.security on 429', async () => {
    mockFetch(() => new Response('', { status: 429 }));
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    const message = await screen.findByTestId('dsa-message');
    expect(message.textContent).toBe(T['dsaform.message.security']);
    expect(message.getAttribute('role')).toBe('alert');
    expect(document.querySelector('form')).not.toBeNull();
  });

  it('shows the general retry message and logs on 500', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch(() => json({ errorCode: 'INTERNAL', messageKey: 'x', fieldErrors: [] }, 500));
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    const message = await screen.findByTestId('dsa-message');
    expect(message.textContent).toBe(T['errors.general_retry.notification']);
    expect(error).toHaveBeenCalledWith('DsaForm setDsaForm error', expect.any(Error));
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the general retry message and logs on a network failure', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new TypeError('Failed to fetch');
    mockFetch(() => Promise.reject(failure));
    await renderForm();
    fillValidReport();
    fireEvent.click(submitButton());
    const message = await screen.findByTestId('dsa-message');
    expect(message.textContent).toBe(T['errors.general_retry.notification']);
    expect(error).toHaveBeenCalledWith('DsaForm setDsaForm error', failure);
  });

  it('refuses a 6 MB file client-side and does not send it', async () => {
    const fetchMock = mockFetch();
    await renderForm();
    const big = new File([new Uint8Array(6 * 1024 * 1024)], 'big.pdf', { type: 'application/pdf' });
    fireEvent.change(control('files'), { target: { files: [big] } });

    expect(errorFor('files')?.textContent).toBe(T['dsaform.error.file_size']);
    expect(control('files').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('big.pdf')).toBeNull();

    fillValidReport();
    fireEvent.click(submitButton());
    await screen.findByText(T['dsaform.message.success']);
    expect((dsaCalls(fetchMock)[0]![1]?.body as FormData).getAll('files')).toHaveLength(0);
  });

  it('refuses an .exe file client-side with the file type error', async () => {
    const fetchMock = mockFetch();
    await renderForm();
    const exe = new File([new Uint8Array(100)], 'setup.exe', { type: 'application/x-msdownload' });
    fireEvent.change(control('files'), { target: { files: [exe] } });
    expect(errorFor('files')?.textContent).toBe(T['dsaform.error.file_type']);
    expect(screen.queryByText('setup.exe')).toBeNull();

    // A valid file afterwards is accepted and clears the error.
    fireEvent.change(control('files'), { target: { files: [pdf('ok.pdf')] } });
    expect(errorFor('files')).toBeNull();
    expect(screen.getByText('ok.pdf')).toBeTruthy();
    expect(dsaCalls(fetchMock)).toHaveLength(0);
  });

  it('refuses a 4th file and lets the user remove one', async () => {
    mockFetch();
    await renderForm();
    fireEvent.change(control('files'), { target: { files: [pdf('1.pdf'), pdf('2.pdf'), pdf('3.pdf')] } });
    expect(screen.getByText('3.pdf')).toBeTruthy();
    fireEvent.change(control('files'), { target: { files: [pdf('4.pdf')] } });
    expect(errorFor('files')?.textContent).toBe(T['dsaform.error.file_count']);
    expect(screen.queryByText('4.pdf')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: T['dsaform.files.remove_named'].replace('{name}', '2.pdf') }));
    expect(screen.queryByText('2.pdf')).toBeNull();
    expect(errorFor('files')).toBeNull();
    fireEvent.change(control('files'), { target: { files: [pdf('4.pdf')] } });
    expect(screen.getByText('4.pdf')).toBeTruthy();
  });

  it('asks for the organisation, its country and the registration number when they apply', async () => {
    const fetchMock = mockFetch();
    await renderForm();
    expect(document.querySelector('[name="denomination"]')).toBeNull();
    fillValidReport();
    fireEvent.click(control('selectedMadeAs', '3'));
    expect(document.querySelector('[name="lastName"]')).toBeNull();
    fireEvent.click(control('selectedConcerns', 'COPYRIGHT_TRADEMARK'));
    fireEvent.click(submitButton());

    expect(errorFor('denomination')?.textContent).toBe(T['dsaform.error.required']);
    expect(errorFor('selectedRegOffice')?.textContent).toBe(T['dsaform.error.required']);
    expect(errorFor('copyrightRegNumber')?.textContent).toBe(T['dsaform.error.reg_number']);
    expect(dsaCalls(fetchMock)).toHaveLength(0);

    fireEvent.change(control('denomination'), { target: { value: 'ACME SA' } });
    fireEvent.change(control('selectedRegOffice'), { target: { value: 'France' } });
    fireEvent.change(control('copyrightRegNumber'), { target: { value: 'FR 4 123 456' } });
    fireEvent.change(control('copyrightReportNumber'), { target: { value: 'R-99' } });
    fireEvent.click(submitButton());
    await screen.findByText(T['dsaform.message.success']);
    const payload = JSON.parse((dsaCalls(fetchMock)[0]![1]?.body as FormData).get('payload') as string) as DsaFormRequest;
    expect(payload).toMatchObject({
      selectedMadeAs: 3,
      selectedConcerns: ['COPYRIGHT_TRADEMARK', 'HATRED'],
      lastName: '',
      denomination: 'ACME SA',
      selectedRegOffice: 'France',
      copyrightRegNumber: 'FR 4 123 456',
      copyrightReportNumber: 'R-99',
    });
  });

  it('labels every control and groups the choices in fieldsets', async () => {
    mockFetch();
    await renderForm();
    fireEvent.click(control('selectedMadeAs', '3'));
    fireEvent.click(control('selectedConcerns', 'COPYRIGHT_DESIGN'));
    for (const el of document.querySelectorAll<HTMLInputElement>('input, textarea')) {
      expect(el.labels?.length ?? 0, el.name).toBeGreaterThan(0);
      expect(el.labels![0]!.textContent!.trim(), el.name).not.toBe('');
    }
    const legends = [...document.querySelectorAll('fieldset > legend')].map((l) => l.textContent);
    expect(legends).toEqual([T['dsaform.madeas.legend'], T['dsaform.concerns.legend']]);
    expect(document.querySelectorAll('fieldset input[type="checkbox"][name="selectedConcerns"]')).toHaveLength(11);
  });
});

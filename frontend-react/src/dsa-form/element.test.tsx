import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../app/locales/dsa/de.json';
import './index';
import { RosaceDsaFormElement, TAG_NAME } from './index';

const reactAct = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let previousActEnv: boolean | undefined;

beforeEach(() => {
  // The element renders with its own React root, outside act(): that is the real usage.
  previousActEnv = reactAct.IS_REACT_ACT_ENVIRONMENT;
  reactAct.IS_REACT_ACT_ENVIRONMENT = false;
});

afterEach(() => {
  reactAct.IS_REACT_ACT_ENVIRONMENT = previousActEnv;
});

function mockFetch() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url.startsWith('/api/content/v1/translations?')) {
      return new Response(JSON.stringify({ locale: 'de-de', translations: de }), { status: 200 });
    }
    if (url === '/api/postsale/v1/help/dsacontactform') return new Response('', { status: 429 });
    throw new Error(`unexpected fetch ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('<rosace-dsa-form>', () => {
  it('is defined once, and importing the module again does not redefine it', async () => {
    expect(customElements.get(TAG_NAME)).toBe(RosaceDsaFormElement);
    await import('./index');
    expect(customElements.get(TAG_NAME)).toBe(RosaceDsaFormElement);
  });

  it('renders the translated form into an open shadow root, leaving the light DOM empty', async () => {
    const fetchMock = mockFetch();
    const el = document.createElement('rosace-dsa-form');
    el.setAttribute('site-id', '2');
    el.setAttribute('locale', 'de-de');
    el.setAttribute('sale-id', '99');
    document.body.append(el);

    const shadow = el.shadowRoot!;
    expect(shadow).not.toBeNull();
    expect(shadow.mode).toBe('open');
    const view = within(shadow as unknown as HTMLElement);
    expect(await view.findByText(de['dsaform.title'])).toBeTruthy();

    expect(el.childNodes).toHaveLength(0);
    expect(document.body.textContent).toBe('');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/content/v1/translations?locale=de-de&fallbackLocale=fr-fr&device=web',
      expect.anything(),
    );
    const style = shadow.querySelector('style');
    expect(style?.textContent).toContain('var(--brand-primary, #d6336c)');
    expect(style?.textContent).toContain('var(--brand-on-primary, #fff)');
  });

  it('handles a submission end to end inside the shadow root (429 → security message)', async () => {
    const fetchMock = mockFetch();
    const el = document.createElement('rosace-dsa-form');
    el.setAttribute('site-id', '2');
    el.setAttribute('locale', 'de-de');
    document.body.append(el);
    const shadow = el.shadowRoot!;
    const view = within(shadow as unknown as HTMLElement);
    await view.findByText(de['dsaform.title']);

    const q = <E extends Element = HTMLInputElement>(sel: string) => shadow.querySelector<E & Element>(sel)!;
    fireEvent.click(q('[name="selectedMadeAs"][value="2"]'));
    fireEvent.change(q('[name="denomination"]'), { target: { value: 'Verbraucherzentrale' } });
    fireEvent.click(q('[name="selectedConcerns"][value="VIOLATION_CONSUMER_RIGHTS"]'));
    fireEvent.change(q('[name="description"]'), { target: { value: 'Irreführende Angaben auf der Produktseite.' } });
    fireEvent.change(q('[name="email"]'), { target: { value: 'kontakt@example.de' } });
    fireEvent.click(q('[name="isNotificationSubmitChecked"]'));
    fireEvent.click(view.getByRole('button', { name: de['dsaform.submit'] }));

    const message = await view.findByTestId('dsa-message');
    expect(message.textContent).toBe(de['dsaform.message.security']);
    const post = fetchMock.mock.calls.find(([u]) => String(u) === '/api/postsale/v1/help/dsacontactform');
    const payload = JSON.parse((post![1]!.body as FormData).get('payload') as string);
    expect(payload).toMatchObject({ siteId: 2, selectedMadeAs: 2, denomination: 'Verbraucherzentrale' });
    expect('saleId' in payload).toBe(false);
  });

  it('unmounts when removed', async () => {
    mockFetch();
    const el = document.createElement('rosace-dsa-form');
    el.setAttribute('site-id', '1');
    el.setAttribute('locale', 'de-de');
    document.body.append(el);
    await within(el.shadowRoot as unknown as HTMLElement).findByText(de['dsaform.title']);
    el.remove();
    await waitFor(() => expect(el.shadowRoot!.querySelector('form')).toBeNull());
  });
});

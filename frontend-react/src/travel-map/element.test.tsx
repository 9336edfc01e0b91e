import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../app/locales/travel-widgets/de.json';
import type { MapHighlight } from '../generated/MapHighlight';
import { OFFERS } from './fixtures';
import { TAG_NAME, TravelMapElement } from './index';

const reactAct = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let previousActEnv: boolean | undefined;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  // The element renders with its own React root, outside act(): that is the real usage.
  previousActEnv = reactAct.IS_REACT_ACT_ENVIRONMENT;
  reactAct.IS_REACT_ACT_ENVIRONMENT = false;
  fetchMock = vi.fn(() => Promise.reject(new Error('no network')));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  reactAct.IS_REACT_ACT_ENVIRONMENT = previousActEnv;
  expect(fetchMock).not.toHaveBeenCalled();
});

const inShadow = (el: Element, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector);
const pins = (el: Element) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.tm-pin')];
const cardHref = (el: Element) => inShadow(el, '.tm-card')?.getAttribute('data-href');

describe('<travel-map>', () => {
  it('is defined once, and importing the module again does not redefine it', async () => {
    expect(customElements.get(TAG_NAME)).toBe(TravelMapElement);
    await import('./index');
    expect(customElements.get(TAG_NAME)).toBe(TravelMapElement);
  });

  it('reads offers (JSON), highlighted and label from attributes into an open shadow root', async () => {
    const el = document.createElement('travel-map');
    el.setAttribute('offers', JSON.stringify(OFFERS));
    el.setAttribute('highlighted', '102');
    el.setAttribute('label', 'Carte des séjours');
    document.body.append(el);

    expect(el.shadowRoot?.mode).toBe('open');
    await waitFor(() => expect(pins(el)).toHaveLength(3));
    expect(inShadow(el, 'svg path.tm-land')?.getAttribute('d')?.length).toBeGreaterThan(500);
    expect(inShadow(el, '[role="region"]')?.getAttribute('aria-label')).toBe('Carte des séjours');
    expect(cardHref(el)).toBe('/voyages/102-nice');
    expect(el.highlighted).toBe(102);
    expect(el.childNodes).toHaveLength(0);
    expect(inShadow(el, 'style')?.textContent).toContain('var(--brand-primary, #d6336c)');

    el.setAttribute('highlighted', '');
    await waitFor(() => expect(cardHref(el)).toBeUndefined());
    expect(el.highlighted).toBeNull();
  });

  it('reads its inputs from JS properties, the way the page sets them after hydration', async () => {
    const el = document.createElement('travel-map');
    document.body.append(el);
    el.offers = OFFERS.slice(0, 2);
    await waitFor(() => expect(pins(el)).toHaveLength(2));
    el.highlighted = 101;
    await waitFor(() => expect(cardHref(el)).toBe('/voyages/101-marseille'));
    el.highlighted = null;
    await waitFor(() => expect(cardHref(el)).toBeUndefined());
    el.label = 'Méditerranée';
    await waitFor(() => expect(inShadow(el, '[role="region"]')?.getAttribute('aria-label')).toBe('Méditerranée'));
  });

  it('keeps properties set before the element was upgraded', async () => {
    const early = document.implementation.createHTMLDocument('').createElement('travel-map') as TravelMapElement;
    Object.assign(early, { offers: OFFERS, highlighted: 103 });
    document.body.append(early);
    const el = document.body.lastElementChild as TravelMapElement;
    expect(el).toBeInstanceOf(TravelMapElement);
    await waitFor(() => expect(cardHref(el)).toBe('/voyages/103-lisbonne'));
  });

  it('sends travel-map-highlight out of the shadow root on hover and when leaving', async () => {
    const seen: CustomEvent<MapHighlight>[] = [];
    const onEvent = (e: Event) => seen.push(e as CustomEvent<MapHighlight>);
    document.addEventListener('travel-map-highlight', onEvent);
    try {
      const el = document.createElement('travel-map');
      el.offers = OFFERS;
      document.body.append(el);
      await waitFor(() => expect(pins(el)).toHaveLength(3));
      const wrap = pins(el)[2]!.closest('li')!;
      fireEvent.mouseEnter(wrap);
      await waitFor(() => expect(cardHref(el)).toBe('/voyages/103-lisbonne'));
      fireEvent.mouseLeave(wrap);
      expect(seen.map((e) => e.detail)).toEqual([{ id: 103 }, { id: null }]);
      expect(seen.every((e) => e.composed && e.bubbles && e.target === el)).toBe(true);
    } finally {
      document.removeEventListener('travel-map-highlight', onEvent);
    }
  });

  it("speaks the page's language", async () => {
    document.documentElement.lang = 'de';
    const table = document.createElement('script');
    table.type = 'application/json';
    table.id = 'i18n';
    table.textContent = JSON.stringify(de);
    document.head.append(table);
    try {
      const el = document.createElement('travel-map');
      el.offers = OFFERS;
      document.body.append(el);
      await waitFor(() => expect(inShadow(el, '[role="region"]')?.getAttribute('aria-label')).toBe(de['travel.map.label']));
      expect(inShadow(el, '.tm-hint')?.textContent).toBe(de['travel.map.hint']);
    } finally {
      table.remove();
      document.documentElement.lang = '';
    }
  });

  it('ignores an offers attribute that is not JSON', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = document.createElement('travel-map');
    el.setAttribute('offers', '[broken');
    document.body.append(el);
    await waitFor(() => expect(inShadow(el, '.tm-svg')).not.toBeNull());
    expect(pins(el)).toHaveLength(0);
    expect(warn).toHaveBeenCalled();
  });
});

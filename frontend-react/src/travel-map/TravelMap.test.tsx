import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fr from '../../../app/locales/travel-widgets/fr.json';
import type { MapHighlight } from '../generated/MapHighlight';
import { OFFERS } from './fixtures';
import { HIGHLIGHT_EVENT, TravelMap, type TravelMapProps } from './TravelMap';

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  // The map must draw from the bundled shapes: any request fails the test.
  fetchMock = vi.fn(() => Promise.reject(new Error('no network')));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  expect(fetchMock).not.toHaveBeenCalled();
});

function renderMap(props: Partial<TravelMapProps> = {}) {
  const all: TravelMapProps = { offers: OFFERS, locale: 'fr-FR', navigate: vi.fn(), ...props };
  const utils = render(<TravelMap {...all} />);
  return { ...utils, props: all, rerenderWith: (more: Partial<TravelMapProps>) => utils.rerender(<TravelMap {...all} {...more} />) };
}

function listen() {
  const seen: CustomEvent<MapHighlight>[] = [];
  const onEvent = (e: Event) => seen.push(e as CustomEvent<MapHighlight>);
  document.addEventListener(HIGHLIGHT_EVENT, onEvent);
  afterEach(() => document.removeEventListener(HIGHLIGHT_EVENT, onEvent));
  return seen;
}

const pin = (name: RegExp | string) => screen.getByRole('button', { name });
const card = () => document.querySelector<HTMLElement>('.tm-card');
const wrapOf = (el: Element) => el.closest('li')!;

/** What a browser does on Enter over a button: keydown, then (unless cancelled) a click. */
function pressEnter(el: Element) {
  if (fireEvent.keyDown(el, { key: 'Enter', code: 'Enter' })) fireEvent.click(el);
}

describe('TravelMap', () => {
  it('draws an SVG map with land and borders, and one pin per offer', () => {
    renderMap();
    const svg = document.querySelector('svg.tm-svg')!;
    expect(svg.getAttribute('viewBox')).toBe('0 0 800 500');
    const land = svg.querySelector('path.tm-land')!.getAttribute('d')!;
    expect(land.length).toBeGreaterThan(500);
    expect(land).toMatch(/^M[\d.-]+,[\d.-]+/);
    expect(svg.querySelector('path.tm-borders')!.getAttribute('d')!.length).toBeGreaterThan(100);
    expect(screen.getAllByRole('button')).toHaveLength(3);
    expect(screen.getByRole('region', { name: fr['travel.map.label'] })).toBeTruthy();
    expect(screen.getByText(fr['travel.map.hint'])).toBeTruthy();
    // No image but the thumbnails' (none shown yet): no tiles.
    expect(document.querySelector('img')).toBeNull();
  });

  it('places the pins inside the map, west to east', () => {
    renderMap();
    const left = (id: number) => parseFloat((document.querySelector(`[data-offer-id="${id}"]`) as HTMLElement).style.left);
    const top = (id: number) => parseFloat((document.querySelector(`[data-offer-id="${id}"]`) as HTMLElement).style.top);
    for (const id of [101, 102, 103]) {
      expect(left(id)).toBeGreaterThan(0);
      expect(left(id)).toBeLessThan(100);
      expect(top(id)).toBeGreaterThan(0);
      expect(top(id)).toBeLessThan(100);
    }
    expect(left(103)).toBeLessThan(left(101)); // Lisbon west of Marseille
    expect(left(101)).toBeLessThan(left(102)); // Marseille west of Nice
    expect(top(103)).toBeGreaterThan(top(102)); // Lisbon south of Nice
  });

  it('gives each pin a focusable button named by title and price', () => {
    renderMap();
    const marseille = pin('Marseille, hôtel du Vieux-Port 4*, 399 € par personne');
    expect(marseille.tagName).toBe('BUTTON');
    act(() => marseille.focus());
    expect(document.activeElement).toBe(marseille);
    expect(pin('Lisbonne, palais de l’Alfama, 689 € par chambre')).toBeTruthy();
  });

  it('skips offers without a valid position, and says so when none is left', () => {
    const { rerenderWith } = renderMap({ offers: [...OFFERS, { ...OFFERS[0]!, id: 104, lat: 200 }] });
    expect(screen.getAllByRole('button')).toHaveLength(3);
    rerenderWith({ offers: [] });
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText(fr['travel.map.empty'])).toBeTruthy();
    expect(document.querySelector('path.tm-land')!.getAttribute('d')!.length).toBeGreaterThan(500);
  });

  it('shows the thumbnail and sends travel-map-highlight on hover, and null when the pointer leaves', () => {
    const seen = listen();
    const onHighlight = vi.fn();
    renderMap({ onHighlight });
    const marseille = pin(/^Marseille/);
    fireEvent.mouseEnter(wrapOf(marseille));
    expect(seen.map((e) => e.detail)).toEqual([{ id: 101 }]);
    expect(seen[0]!.bubbles && seen[0]!.composed).toBe(true);
    expect(onHighlight).toHaveBeenCalledWith(101);

    const thumb = card()!;
    expect(thumb.getAttribute('data-href')).toBe('/voyages/101-marseille');
    expect(within(thumb).getByText('Marseille, hôtel du Vieux-Port 4*')).toBeTruthy();
    expect(within(thumb).getByText('399 €').tagName).toBe('STRONG');
    expect(thumb.textContent).toContain('par personne');
    expect(within(thumb).getByText('Petit-déjeuner offert')).toBeTruthy();
    expect(thumb.querySelector('img')?.getAttribute('src')).toBe('/img/travel/101.jpg');
    expect(marseille.getAttribute('aria-describedby')).toBe(thumb.id);

    fireEvent.mouseLeave(wrapOf(marseille));
    expect(seen.map((e) => e.detail)).toEqual([{ id: 101 }, { id: null }]);
    expect(card()).toBeNull();
  });

  it('keeps the thumbnail while the pointer moves onto it', () => {
    const seen = listen();
    renderMap();
    const wrap = wrapOf(pin(/^Nice/));
    fireEvent.mouseEnter(wrap);
    fireEvent.mouseOver(card()!);
    expect(card()?.getAttribute('data-href')).toBe('/voyages/102-nice');
    expect(seen.map((e) => e.detail.id)).toEqual([102]);
  });

  it('shows the thumbnail on focus, as a description and no second control, and leaves on blur', () => {
    const seen = listen();
    renderMap();
    const lisbon = pin(/^Lisbonne/);
    act(() => lisbon.focus());
    expect(seen.map((e) => e.detail.id)).toEqual([103]);
    expect(within(card()!).getByText('-40 %')).toBeTruthy();
    // The card is no second control over the map: only the pin takes focus.
    expect(card()!.tabIndex).toBe(-1);
    expect(card()!.querySelector('a, button, [tabindex]')).toBeNull();
    const nice = pin(/^Nice/);
    act(() => nice.focus());
    expect(seen.map((e) => e.detail.id)).toEqual([103, null, 102]);
    expect(card()?.getAttribute('data-href')).toBe('/voyages/102-nice');
    act(() => nice.blur());
    expect(seen.map((e) => e.detail.id)).toEqual([103, null, 102, null]);
    expect(card()).toBeNull();
  });

  it('hides the thumbnail on Escape', () => {
    renderMap();
    const nice = pin(/^Nice/);
    act(() => nice.focus());
    expect(card()).not.toBeNull();
    fireEvent.keyDown(nice, { key: 'Escape' });
    expect(card()).toBeNull();
  });

  it('follows the offer link on click and on Enter', () => {
    const { props } = renderMap();
    fireEvent.click(pin(/^Nice/));
    expect(props.navigate).toHaveBeenLastCalledWith('/voyages/102-nice');
    pressEnter(pin(/^Lisbonne/));
    expect(props.navigate).toHaveBeenLastCalledWith('/voyages/103-lisbonne');
    // A click on the open thumbnail follows its offer too.
    fireEvent.mouseEnter(wrapOf(pin(/^Marseille/)));
    fireEvent.click(card()!);
    expect(props.navigate).toHaveBeenLastCalledWith('/voyages/101-marseille');
  });

  it('shows the thumbnail on a first tap, and follows the link on the second', () => {
    const seen = listen();
    const { props } = renderMap();
    const marseille = pin(/^Marseille/);
    fireEvent.pointerDown(marseille, { pointerType: 'touch' });
    fireEvent.click(marseille);
    expect(props.navigate).not.toHaveBeenCalled();
    expect(card()?.getAttribute('data-href')).toBe('/voyages/101-marseille');
    expect(seen.map((e) => e.detail.id)).toEqual([101]);
    fireEvent.pointerDown(marseille, { pointerType: 'touch' });
    fireEvent.click(marseille);
    expect(props.navigate).toHaveBeenCalledWith('/voyages/101-marseille');
  });

  it('shows the thumbnail of the offer highlighted from outside, without sending an event', () => {
    const seen = listen();
    const { rerenderWith } = renderMap({ highlighted: 102 });
    expect(card()?.getAttribute('data-href')).toBe('/voyages/102-nice');
    expect(wrapOf(pin(/^Nice/)).className).toContain('tm-shown');
    rerenderWith({ highlighted: 103 });
    expect(card()?.getAttribute('data-href')).toBe('/voyages/103-lisbonne');
    // The user's own highlight wins while it lasts.
    fireEvent.mouseEnter(wrapOf(pin(/^Marseille/)));
    expect(card()?.getAttribute('data-href')).toBe('/voyages/101-marseille');
    fireEvent.mouseLeave(wrapOf(pin(/^Marseille/)));
    expect(card()?.getAttribute('data-href')).toBe('/voyages/103-lisbonne');
    rerenderWith({ highlighted: null });
    expect(card()).toBeNull();
    expect(seen.map((e) => e.detail.id)).toEqual([101, null]);
  });

  it('takes its accessible name from the label input', () => {
    renderMap({ label: 'Nos séjours en Méditerranée' });
    expect(screen.getByRole('region', { name: 'Nos séjours en Méditerranée' })).toBeTruthy();
  });
});

describe('pin spacing', () => {
  it('keeps every two pins PIN_SPACING apart along x or y, even for offers on one spot', async () => {
    const { spread, PIN_SPACING } = await import('./geo');
    const same = [0, 1, 2, 3, 4].map((i) => ({ item: i, x: 400, y: 250 }));
    const out = spread(same);
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const apart = Math.max(Math.abs(out[i].x - out[j].x), Math.abs(out[i].y - out[j].y));
        expect(apart).toBeGreaterThanOrEqual(PIN_SPACING - 0.5);
      }
    }
    // Pins far apart stay where they are.
    expect(spread([{ item: 0, x: 100, y: 100 }, { item: 1, x: 500, y: 300 }])).toEqual([
      { item: 0, x: 100, y: 100 },
      { item: 1, x: 500, y: 300 },
    ]);
  });
});

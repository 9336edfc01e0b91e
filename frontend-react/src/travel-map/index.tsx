// <travel-map offers='[{"id":1,"title":"…","lat":43.3,"lng":5.4,…}]' highlighted="1" label="…">
// The map of travel offers as a custom element: an offline vector map with a pin and a
// thumbnail per offer. Every input is an attribute (JSON for `offers`) and a JS property.
// Sends `travel-map-highlight` ({ id }, null when leaving) when the user highlights a pin.
// Without JS the page lists the offers itself: this is an enhancement.
import stylesheet from './travel-map.css?inline';
import { TravelMap } from './TravelMap';
import type { MapOffer } from '../generated/MapOffer';
import { ReactWidgetElement, isRecord, parseJson } from '../travel-shared/element';
import { resolveLocale } from '../travel-shared/i18n';

export const TAG_NAME = 'travel-map';

/** Keeps the entries that look like offers. */
function toOffers(value: unknown): MapOffer[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (o): o is MapOffer =>
      isRecord(o) &&
      typeof o.id === 'number' &&
      typeof o.title === 'string' &&
      typeof o.href === 'string' &&
      typeof o.lat === 'number' &&
      typeof o.lng === 'number' &&
      isRecord(o.price),
  );
}

/** An offer id from a number or its text; null for anything else (empty included). */
function toId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export class TravelMapElement extends ReactWidgetElement {
  static observedAttributes = ['offers', 'highlighted', 'label'];

  protected readonly css = stylesheet;
  protected readonly propertyNames = ['offers', 'highlighted', 'label'] as const;

  private _offers: MapOffer[] = [];
  private _highlighted: number | null = null;
  private _label = '';

  protected readAttribute(name: string, value: string | null): void {
    switch (name) {
      case 'offers':
        this._offers = toOffers(parseJson(value, []));
        break;
      case 'highlighted':
        this._highlighted = toId(value);
        break;
      case 'label':
        this._label = value?.trim() ?? '';
        break;
    }
  }

  /** The offers to pin (also accepts their JSON text). */
  get offers(): MapOffer[] {
    return this._offers;
  }
  set offers(value: MapOffer[] | string | null | undefined) {
    this._offers = toOffers(typeof value === 'string' ? parseJson(value, []) : value);
    this.update();
  }

  /** The offer highlighted from outside, or null (an empty string clears it too). */
  get highlighted(): number | null {
    return this._highlighted;
  }
  set highlighted(value: number | string | null | undefined) {
    this._highlighted = toId(value);
    this.update();
  }

  /** Accessible name of the map (a translated default when empty). */
  get label(): string {
    return this._label;
  }
  set label(value: string | null | undefined) {
    this._label = typeof value === 'string' ? value.trim() : '';
    this.update();
  }

  protected renderWidget() {
    return (
      <TravelMap
        offers={this._offers}
        highlighted={this._highlighted}
        label={this._label}
        locale={resolveLocale(null)}
      />
    );
  }
}

if (!customElements.get(TAG_NAME)) {
  customElements.define(TAG_NAME, TravelMapElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'travel-map': TravelMapElement;
  }
}

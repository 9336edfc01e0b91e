// The map of travel offers: an offline vector map (see geo.ts) with one pin per offer. Hover,
// focus or a first tap shows the offer's thumbnail and sends `travel-map-highlight`; Enter or a
// click follows the offer's link. `highlighted` (the page's list card under the pointer) shows
// that offer's thumbnail from outside.
import { useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type PointerEvent } from 'react';
import type { MapHighlight } from '../generated/MapHighlight';
import type { MapOffer } from '../generated/MapOffer';
import { useTranslate } from '../travel-shared/i18n';
import { HEIGHT, WIDTH, mapView } from './geo';

export const HIGHLIGHT_EVENT = 'travel-map-highlight';

export interface TravelMapProps {
  offers: readonly MapOffer[];
  /** The offer highlighted from outside (its thumbnail shows), or null. */
  highlighted?: number | null;
  /** Accessible name of the map; a translated default otherwise. */
  label?: string;
  /** Language of the texts (the page's). */
  locale: string;
  /** Called with the offer the user highlights, null when leaving (after the DOM event). */
  onHighlight?: (id: number | null) => void;
  /** Follows an offer's link (a full page load by default). */
  navigate?: (href: string) => void;
}

const followLink = (href: string) => window.location.assign(href);

const pct = (value: number, total: number) => `${((value / total) * 100).toFixed(3)}%`;

/** Where the thumbnail opens so that it stays on the map: above or below, and which side. */
function placement(x: number, y: number): string {
  const vertical = y < HEIGHT * 0.45 ? 'tm-below' : 'tm-above';
  const horizontal = x < WIDTH / 3 ? 'tm-start' : x > (WIDTH * 2) / 3 ? 'tm-end' : 'tm-center';
  return `${vertical} ${horizontal}`;
}

function PinIcon() {
  return (
    <svg className="tm-pin-icon" viewBox="0 0 24 32" width="24" height="32" aria-hidden="true" focusable="false">
      <path d="M12 31C12 31 22 18.6 22 11.5A10 10 0 0 0 2 11.5C2 18.6 12 31 12 31Z" />
      <circle cx="12" cy="11.5" r="4" />
    </svg>
  );
}

export function TravelMap({ offers, highlighted = null, label, locale, onHighlight, navigate = followLink }: TravelMapProps) {
  const t = useTranslate(locale, 'travel.map.');
  const rootRef = useRef<HTMLDivElement>(null);
  const ids = useId();
  const view = useMemo(() => mapView(offers), [offers]);

  // The offer the user points at or focuses; it wins over `highlighted`.
  const [active, setActive] = useState<number | null>(null);
  const activeRef = useRef<number | null>(null);
  // Escape hides the thumbnail until the next highlight.
  const [dismissed, setDismissed] = useState(false);
  // A touch on a pin whose thumbnail is hidden shows it instead of following the link.
  const firstTap = useRef(false);

  const shown = dismissed ? null : (active ?? highlighted);

  const highlight = (id: number | null) => {
    if (id !== null) setDismissed(false);
    if (activeRef.current === id) return;
    activeRef.current = id;
    setActive(id);
    const detail: MapHighlight = { id };
    rootRef.current?.dispatchEvent(new CustomEvent(HIGHLIGHT_EVENT, { detail, bubbles: true, composed: true }));
    onHighlight?.(id);
  };
  const leave = (id: number) => {
    if (activeRef.current === id) highlight(null);
  };

  return (
    <div className="tm" ref={rootRef} role="region" aria-label={label || t('travel.map.label')}>
      <div className="tm-frame">
        <svg className="tm-svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
          <rect className="tm-sea" width={WIDTH} height={HEIGHT} />
          <path className="tm-land" d={view.land} />
          <path className="tm-borders" d={view.borders} />
        </svg>
        <ul className="tm-pins">
          {view.points.map(({ item: offer, x, y }) => {
            const isShown = shown === offer.id;
            const cardId = `${ids}-card-${offer.id}`;
            return (
              <li
                key={offer.id}
                className={`tm-pin-wrap${isShown ? ' tm-shown' : ''}`}
                style={{ left: pct(x, WIDTH), top: pct(y, HEIGHT) }}
                data-offer-id={offer.id}
                onMouseEnter={() => highlight(offer.id)}
                onMouseLeave={() => leave(offer.id)}
                onFocus={() => highlight(offer.id)}
                onBlur={(e: FocusEvent<HTMLLIElement>) => {
                  if (!e.currentTarget.contains(e.relatedTarget as Node | null)) leave(offer.id);
                }}
                onKeyDown={(e: KeyboardEvent) => {
                  if (e.key === 'Escape' && shown === offer.id) {
                    setDismissed(true);
                    e.stopPropagation();
                  }
                }}
              >
                <button
                  type="button"
                  className="tm-pin"
                  aria-label={t('travel.map.pin', { title: offer.title, price: offer.price.value, unit: offer.price.unit })}
                  aria-describedby={isShown ? cardId : undefined}
                  onPointerDown={(e: PointerEvent) => {
                    firstTap.current = e.pointerType === 'touch' && shown !== offer.id;
                  }}
                  onClick={() => {
                    if (firstTap.current) {
                      firstTap.current = false;
                      highlight(offer.id);
                      return;
                    }
                    navigate(offer.href);
                  }}
                >
                  <PinIcon />
                </button>
                {isShown && (
                  // Not a link: a focusable card over the map would cover its neighbours'
                  // pins (WCAG 2.5.8 target size). The pin is the one control (it follows
                  // the offer, and reads this card as its description); a click on the card
                  // does the same for the pointer.
                  <div className={`tm-card ${placement(x, y)}`} id={cardId} data-href={offer.href} onClick={() => navigate(offer.href)}>
                    {offer.image ? (
                      <img className="tm-card-image" src={offer.image} alt="" width={112} height={84} loading="lazy" decoding="async" />
                    ) : (
                      <span className="tm-card-image" aria-hidden="true" />
                    )}
                    <span className="tm-card-text">
                      <span className="tm-card-title">{offer.title}</span>
                      <span className="tm-card-price">
                        <strong>{offer.price.value}</strong> {offer.price.unit}
                      </span>
                      {offer.benefit && <span className="tm-card-benefit">{offer.benefit}</span>}
                    </span>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <p className="tm-hint">{view.points.length > 0 ? t('travel.map.hint') : t('travel.map.empty')}</p>
    </div>
  );
}

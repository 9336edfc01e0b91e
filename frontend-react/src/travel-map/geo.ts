// The offline map: land and country borders of world-atlas (Natural Earth 1:110m, bundled with
// the widget) drawn by d3-geo in a Mercator projection fitted to the offers. No tile server.
import { geoMercator, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import world from 'world-atlas/countries-110m.json';

/** The SVG's coordinate box; the SVG scales to its width, keeping this ratio. */
export const WIDTH = 800;
export const HEIGHT = 500;
/** Room around the offers (pins stand above their point; thumbnails open beside). */
const MARGIN = 56;
/** The smallest area shown, in degrees, so offers in one city still show their region. */
const MIN_SPAN_LNG = 6;
const MIN_SPAN_LAT = 4;
/** Without offers: Europe. */
const DEFAULT_BOUNDS: Bounds = [
  [-11, 35],
  [30, 60],
];

type Bounds = [[number, number], [number, number]];
type Topology = Parameters<typeof feature>[0];

export interface Located {
  lat: number;
  lng: number;
}

export interface MapView<T extends Located> {
  /** SVG path of the land, clipped to the view. */
  land: string;
  /** SVG path of the borders between countries. */
  borders: string;
  /** The points with a valid position, and where they fall in the SVG box. */
  points: { item: T; x: number; y: number }[];
}

let shapes: { land: ReturnType<typeof feature>; borders: ReturnType<typeof mesh> } | null = null;

/** Land and borders as GeoJSON, decoded from the TopoJSON on first use. */
function worldShapes() {
  if (!shapes) {
    const topology = world as unknown as Topology;
    const countries = topology.objects.countries as Parameters<typeof mesh>[1];
    shapes = {
      land: feature(topology, topology.objects.land),
      borders: mesh(topology, countries, (a, b) => a !== b),
    };
  }
  return shapes;
}

export function hasPosition(p: Located): boolean {
  return Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 85 && Math.abs(p.lng) <= 180;
}

/** The box around the points, widened to the minimum span. */
function boundsOf(points: readonly Located[]): Bounds {
  if (points.length === 0) return DEFAULT_BOUNDS;
  const lngs = points.map((p) => p.lng);
  const lats = points.map((p) => p.lat);
  const widen = (lo: number, hi: number, min: number, limit: number): [number, number] => {
    const grow = Math.max(0, min - (hi - lo)) / 2;
    return [Math.max(-limit, lo - grow), Math.min(limit, hi + grow)];
  };
  const [west, east] = widen(Math.min(...lngs), Math.max(...lngs), MIN_SPAN_LNG, 180);
  const [south, north] = widen(Math.min(...lats), Math.max(...lats), MIN_SPAN_LAT, 85);
  return [
    [west, south],
    [east, north],
  ];
}

/**
 * Smallest offset between two pins along x or y, in SVG units: 80 units are 36 px on a
 * 360 px wide phone, more than a pin's 32 px, so no pin covers part of another and each
 * keeps a whole 24 px target (WCAG 2.2 target size) even when offers share a street.
 */
export const PIN_SPACING = 80;

/**
 * Pushes apart the points whose x and y both differ by less than `min`, along the axis
 * where they differ most, a few relaxation passes, keeping them inside the map.
 * Deterministic: the same offers always land in the same places.
 */
export function spread<T>(points: { item: T; x: number; y: number }[], min = PIN_SPACING): { item: T; x: number; y: number }[] {
  const out = points.map((p) => ({ ...p }));
  for (let pass = 0; pass < 60; pass++) {
    let moved = false;
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i];
        const b = out[j];
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        if (Math.max(Math.abs(dx), Math.abs(dy)) >= min) continue;
        if (Math.abs(dx) < 0.01 && Math.abs(dy) < 0.01) {
          // Same spot: a golden-angle direction per index spreads them around it.
          dx = Math.cos(j * 2.399963);
          dy = Math.sin(j * 2.399963);
        }
        if (Math.abs(dx) >= Math.abs(dy)) {
          const push = (min - Math.abs(dx)) / 2 + 0.01;
          const sign = Math.sign(dx) || 1;
          a.x -= sign * push;
          b.x += sign * push;
        } else {
          const push = (min - Math.abs(dy)) / 2 + 0.01;
          const sign = Math.sign(dy) || 1;
          a.y -= sign * push;
          b.y += sign * push;
        }
        moved = true;
      }
    }
    for (const p of out) {
      p.x = Math.min(WIDTH - MARGIN / 2, Math.max(MARGIN / 2, p.x));
      p.y = Math.min(HEIGHT - MARGIN / 4, Math.max(MARGIN, p.y));
    }
    if (!moved) break;
  }
  return out;
}

/** The map around `items`: a Mercator projection fitted to them with a margin. */
export function mapView<T extends Located>(items: readonly T[]): MapView<T> {
  const placed = items.filter(hasPosition);
  const [sw, ne] = boundsOf(placed);
  const projection = geoMercator().fitExtent(
    [
      [MARGIN, MARGIN],
      [WIDTH - MARGIN, HEIGHT - MARGIN],
    ],
    { type: 'MultiPoint', coordinates: [sw, ne] },
  );
  projection.clipExtent([
    [0, 0],
    [WIDTH, HEIGHT],
  ]);
  const path = geoPath(projection).digits(1);
  const { land, borders } = worldShapes();
  return {
    land: path(land) ?? '',
    borders: path(borders) ?? '',
    points: spread(
      placed.map((item) => {
        const [x, y] = projection([item.lng, item.lat]) ?? [WIDTH / 2, HEIGHT / 2];
        return { item, x, y };
      }),
    ),
  };
}

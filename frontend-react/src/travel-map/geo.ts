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
    points: placed.map((item) => {
      const [x, y] = projection([item.lng, item.lat]) ?? [WIDTH / 2, HEIGHT / 2];
      return { item, x, y };
    }),
  };
}

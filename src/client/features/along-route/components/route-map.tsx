import type { AlongRouteRequest } from '@shared/along-route';
import type { Ride } from '@shared/marketplace';
import { STOPS_TEXT } from '@shared/plans';

/**
 * The route map (an early-access feature, decision 035): the ride's origin, its stops in order and its destination
 * as a line of numbered points, and the requests along it as markers (pickup filled, delivery hollow, joined by a
 * dashed line). Drawn as SVG from the coordinates of the places chosen in the forms: no map tiles, so it works with
 * no internet beyond RuralRoute. Loaded on its own (React.lazy) by the pages that show it.
 */

interface LatLon {
  lat: number;
  lon: number;
}

export interface RoutePoint extends LatLon {
  kind: 'origin' | 'stop' | 'destination';
  /** 'Origin', 'Stop 1', 'Destination' (a stop keeps its number on the ride, even when another is free text). */
  role: string;
  label: string;
}

/**
 * The ride's points with coordinates, in order; null when either end is free text (nothing to draw). A stop typed
 * as free text is left out, as the along-the-route matching leaves it out.
 */
export function routePoints(
  ride: Pick<Ride, 'origin' | 'destination' | 'origin_point' | 'destination_point' | 'stops'>,
): RoutePoint[] | null {
  if (!ride.origin_point || !ride.destination_point) return null;
  const stops = ride.stops.flatMap((stop, i): RoutePoint[] =>
    stop.point
      ? [{ kind: 'stop', role: STOPS_TEXT.label(i + 1), label: stop.label, lat: stop.point.lat, lon: stop.point.lon }]
      : [],
  );
  return [
    { kind: 'origin', role: 'Origin', label: ride.origin, ...ride.origin_point },
    ...stops,
    { kind: 'destination', role: 'Destination', label: ride.destination, ...ride.destination_point },
  ];
}

const WIDTH = 400;
const PAD = 24;
const MIN_HEIGHT = 200;
const MAX_HEIGHT = 360;

/**
 * An equirectangular projection fitted to the points: longitude scaled by the cosine of the middle latitude (so a
 * mile east is as long as a mile north there), north up, the whole drawing centred. At the scale of a ride (tens to
 * hundreds of miles) it is as good as any projection.
 */
export function fitProjection(points: readonly LatLon[]) {
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const [minLon, maxLon] = [Math.min(...lons), Math.max(...lons)];
  const k = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = (maxLon - minLon) * k;
  const spanY = maxLat - minLat;
  const inner = WIDTH - 2 * PAD;
  // A north-south route gets a taller map, an east-west one a shorter one, within bounds.
  const height = Math.round(
    Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, spanX > 0 ? (spanY / spanX) * inner + 2 * PAD : MAX_HEIGHT)),
  );
  const scales = [spanX > 0 ? inner / spanX : Infinity, spanY > 0 ? (height - 2 * PAD) / spanY : Infinity];
  const scale = Math.min(...scales);
  const s = Number.isFinite(scale) ? scale : 0;
  const offsetX = (WIDTH - spanX * s) / 2;
  const offsetY = (height - spanY * s) / 2;
  return {
    width: WIDTH,
    height,
    project: ({ lat, lon }: LatLon) => ({
      x: round(offsetX + (lon - minLon) * k * s),
      y: round(offsetY + (maxLat - lat) * s),
    }),
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

interface Marker {
  id: string;
  title: string;
  pickup: LatLon | null;
  delivery: LatLon | null;
}

const markersOf = (requests: readonly AlongRouteRequest[]): Marker[] =>
  requests.flatMap((r) =>
    r.pickup_point || r.delivery_point
      ? [{ id: r.id, title: r.title, pickup: r.pickup_point, delivery: r.delivery_point }]
      : [],
  );

function summaryOf(points: RoutePoint[], markers: number): string {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const stops = points.length - 2;
  const via = stops > 0 ? ` ${STOPS_TEXT.via(stops)}` : '';
  const along =
    markers === 0 ? '' : markers === 1 ? ', with 1 request along it' : `, with ${markers} requests along it`;
  return `Route map: from ${first.label} to ${last.label}${via}${along}.`;
}

/**
 * The map with its legend. `requests`: the open requests along the route (its driver's list); each with a place is
 * a marker. Nothing at all when the ride's ends are free text.
 */
export function RouteMap({ ride, requests = [] }: { ride: Ride; requests?: readonly AlongRouteRequest[] }) {
  const points = routePoints(ride);
  if (!points) return null;
  const markers = markersOf(requests);
  const { width, height, project } = fitProjection([
    ...points,
    ...markers.flatMap((m) => [m.pickup, m.delivery].filter((p): p is LatLon => p !== null)),
  ]);
  const line = points.map((p) => project(p));
  return (
    <figure className="mb-6 rounded-lg border bg-card p-3 text-card-foreground">
      <svg
        role="img"
        aria-label={summaryOf(points, markers.length)}
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto max-h-[360px] w-full"
      >
        <rect width={width} height={height} rx={8} className="fill-muted" />
        {markers.map((m) => {
          const a = m.pickup && project(m.pickup);
          const b = m.delivery && project(m.delivery);
          return (
            <g key={m.id} data-request={m.id}>
              <title>{m.title}</title>
              {a && b ? (
                <line
                  x1={a.x}
                  y1={a.y}
                  x2={b.x}
                  y2={b.y}
                  strokeWidth={1.5}
                  strokeDasharray="4 3"
                  className="stroke-amber-700"
                />
              ) : null}
              {a ? <rect x={a.x - 5} y={a.y - 5} width={10} height={10} className="fill-amber-700" /> : null}
              {b ? (
                <rect
                  x={b.x - 5}
                  y={b.y - 5}
                  width={10}
                  height={10}
                  strokeWidth={2}
                  className="fill-background stroke-amber-700"
                />
              ) : null}
            </g>
          );
        })}
        <polyline
          points={line.map(({ x, y }) => `${x},${y}`).join(' ')}
          fill="none"
          strokeWidth={4}
          strokeLinejoin="round"
          strokeLinecap="round"
          className="stroke-primary"
        />
        {points.map((p, i) => {
          const { x, y } = line[i]!;
          return (
            <g key={i} data-point={p.kind}>
              <title>{`${i + 1}. ${p.role}: ${p.label}`}</title>
              <circle cx={x} cy={y} r={11} strokeWidth={2} className="fill-primary stroke-background" />
              <text
                x={x}
                y={y}
                dy="0.35em"
                textAnchor="middle"
                fontSize={13}
                fontWeight={700}
                className="fill-primary-foreground"
              >
                {i + 1}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-3 space-y-2 text-sm">
        <ol aria-label="The route in order" className="space-y-1">
          {points.map((p, i) => (
            <li key={i} className="flex items-start gap-2">
              <span
                aria-hidden
                className="inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-bold text-primary-foreground"
              >
                {i + 1}
              </span>
              <span className="min-w-0 break-words">
                <span className="font-medium">{p.role}:</span> {p.label}
              </span>
            </li>
          ))}
        </ol>
        {markers.length ? (
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <span aria-hidden className="inline-block size-2.5 bg-amber-700" /> Pickup
            </span>
            <span className="inline-flex items-center gap-1">
              <span aria-hidden className="inline-block size-2.5 border-2 border-amber-700 bg-background" /> Delivery
            </span>
            <span>
              {markers.length === 1 ? '1 request along this route' : `${markers.length} requests along this route`},
              listed below.
            </span>
          </p>
        ) : null}
      </figcaption>
    </figure>
  );
}

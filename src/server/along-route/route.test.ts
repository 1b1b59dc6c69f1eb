import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointOnRide } from '../test/route';
import { corridorBoxes, frameOf, MAX_PIECES, type Point } from './geometry';
import { legsOf, routeBox, routeBoxes } from './route';

const point = fc.record({
  lat: fc.double({ min: 26, max: 46, noNaN: true }),
  lon: fc.double({ min: -120, max: -70, noNaN: true }),
});
const near = (p: Point) =>
  fc.record({
    lat: fc.double({ min: p.lat - 2, max: p.lat + 2, noNaN: true }),
    lon: fc.double({ min: p.lon - 2, max: p.lon + 2, noNaN: true }),
  });
/** A route of 2 to 5 points (up to 3 stops), each within 2° of the one before. */
const route = point.chain((origin) =>
  fc
    .array(fc.constant(0), { minLength: 1, maxLength: 4 })
    .chain((rest) =>
      rest.reduce<fc.Arbitrary<Point[]>>(
        (acc) => acc.chain((pts) => near(pts.at(-1)!).map((next) => [...pts, next])),
        fc.constant([origin]),
      ),
    ),
);
const inBox = (p: Point, b: ReturnType<typeof routeBox>) =>
  p.lat >= b.minLat && p.lat <= b.maxLat && p.lon >= b.minLon && p.lon <= b.maxLon;

describe('a route with stops', () => {
  it('routeBoxes and routeBox hold every point within the corridor of any leg (caps included)', () => {
    fc.assert(
      fc.property(
        route,
        fc.nat(),
        fc.double({ min: 1, max: 25, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (points, pick, miles, t, angle, r) => {
          const legs = legsOf(points);
          const [a, b] = legs[pick % legs.length]!;
          const d = r * miles * 0.999999;
          const p = pointOnRide(a, b, t * frameOf(a, b).length + d * Math.cos(angle), d * Math.sin(angle));
          expect(routeBoxes(points, miles).some((box) => inBox(p, box))).toBe(true);
          expect(inBox(p, routeBox(points, miles))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is one leg without stops (the same boxes as a ride), and never more pieces than a long ride', () => {
    const [o, d] = [
      { lat: 38, lon: -91 },
      { lat: 41, lon: -88 },
    ];
    expect(legsOf([o, d])).toEqual([[o, d]]);
    expect(routeBoxes([o, d], 5)).toEqual(corridorBoxes(o, d, 5));
    const stops = [o, { lat: 41, lon: -91 }, { lat: 38, lon: -88 }, { lat: 41.5, lon: -89 }, d];
    expect(legsOf(stops)).toHaveLength(4);
    expect(routeBoxes(stops, 5).length).toBeLessThanOrEqual(MAX_PIECES);
  });
});

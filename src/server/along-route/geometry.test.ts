import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointOnRide } from '../test/route';
import { corridorBoxes, frameOf, type Point } from './geometry';

const point = fc.record({
  lat: fc.double({ min: 25, max: 49, noNaN: true }),
  lon: fc.double({ min: -124, max: -67, noNaN: true }),
});
const inside = (p: Point, boxes: ReturnType<typeof corridorBoxes>) =>
  boxes.some((b) => p.lat >= b.minLat && p.lat <= b.maxLat && p.lon >= b.minLon && p.lon <= b.maxLon);

describe('corridorBoxes', () => {
  it('hold every point of the corridor (caps included), whatever the ride', () => {
    fc.assert(
      fc.property(
        point,
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: 1, max: 25, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (origin, dLat, dLon, miles, t, angle, r) => {
          const destination = { lat: origin.lat + dLat, lon: origin.lon + dLon };
          const { length } = frameOf(origin, destination);
          // A point at most `miles` (less a hair) from the point t of the way along.
          const d = r * miles * 0.999999;
          const p = pointOnRide(origin, destination, t * length + d * Math.cos(angle), d * Math.sin(angle));
          expect(inside(p, corridorBoxes(origin, destination, miles))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('cut a long ride into pieces, a short one not', () => {
    expect(corridorBoxes({ lat: 40, lon: -89 }, { lat: 40.05, lon: -89 }, 5)).toHaveLength(1);
    expect(corridorBoxes({ lat: 38, lon: -91 }, { lat: 41, lon: -88 }, 5).length).toBeGreaterThan(10);
    expect(corridorBoxes({ lat: 38, lon: -91 }, { lat: 41, lon: -88 }, 25).length).toBeLessThan(10);
  });
});

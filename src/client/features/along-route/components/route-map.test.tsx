import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AlongRouteRequest } from '@shared/along-route';
import { makeRequest, makeRide } from '@/test/factories';
import { fitProjection, RouteMap, routePoints } from './route-map';

const point = (place_id: number, lat: number, lon: number) => ({ place_id, lat, lon });
// Springfield -> Illiopolis -> (a farm typed as free text) -> Decatur, IL: west to east.
const ride = makeRide({
  origin: 'Springfield, IL',
  destination: 'Decatur, IL',
  origin_point: point(1, 39.8017, -89.6437),
  destination_point: point(2, 39.8403, -88.9548),
  stops: [
    { label: 'Illiopolis, IL', point: point(3, 39.8534, -89.2451) },
    { label: 'Miller farm', point: null },
    { label: 'Niantic, IL', point: point(4, 39.8545, -89.1673) },
  ],
});
const along = (over: Partial<AlongRouteRequest>): AlongRouteRequest => ({
  ...makeRequest(),
  detour_miles: 1,
  asked: false,
  ...over,
});

const svg = () => screen.getByRole('img');
const pointTitles = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-point] > title')].map((t) => t.textContent);
const centres = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-point] > circle')].map((c) => ({
    x: Number(c.getAttribute('cx')),
    y: Number(c.getAttribute('cy')),
  }));

describe('Route map', () => {
  it('draws origin, the stops with places in order and destination as one line of numbered points', () => {
    const { container } = render(<RouteMap ride={ride} />);
    expect(svg()).toHaveAccessibleName('Route map: from Springfield, IL to Decatur, IL via 2 stops.');
    // The free-text stop has no coordinates: left out, as the along-route matching leaves it out; the others keep
    // their numbers on the ride.
    expect(pointTitles(container)).toEqual([
      '1. Origin: Springfield, IL',
      '2. Stop 1: Illiopolis, IL',
      '3. Stop 3: Niantic, IL',
      '4. Destination: Decatur, IL',
    ]);
    expect(
      within(screen.getByRole('list', { name: 'The route in order' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '1Origin: Springfield, IL',
      '2Stop 1: Illiopolis, IL',
      '3Stop 3: Niantic, IL',
      '4Destination: Decatur, IL',
    ]);

    // West to east on the map, and the line goes through the points in that order.
    const at = centres(container);
    expect(at.map((c) => c.x)).toEqual([...at.map((c) => c.x)].sort((a, b) => a - b));
    expect(container.querySelector('polyline')!.getAttribute('points')).toBe(at.map((c) => `${c.x},${c.y}`).join(' '));
    // Springfield is the southernmost: lowest on the map (SVG's y grows downwards).
    expect(Math.max(...at.map((c) => c.y))).toBe(at[0]!.y);
    // Everything within the drawing.
    const [, , width, height] = svg().getAttribute('viewBox')!.split(' ').map(Number);
    for (const { x, y } of at) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(width!);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(height!);
    }
  });

  it('marks the requests along the route that have places, and counts them in the summary', () => {
    const requests = [
      along({ title: 'Seed corn', pickup_point: point(5, 39.83, -89.5), delivery_point: point(6, 39.84, -89.1) }),
      along({ title: 'Typed as free text' }),
    ];
    const { container } = render(<RouteMap ride={ride} requests={requests} />);
    expect(svg()).toHaveAccessibleName(
      'Route map: from Springfield, IL to Decatur, IL via 2 stops, with 1 request along it.',
    );
    const markers = container.querySelectorAll('[data-request]');
    expect(markers).toHaveLength(1);
    expect(markers[0]!.querySelector('title')!.textContent).toBe('Seed corn');
    expect(markers[0]!.querySelectorAll('rect')).toHaveLength(2);
    expect(screen.getByText(/1 request along this route/)).toBeVisible();
  });

  it('draws nothing when the ride has no coordinates (its places typed as free text)', () => {
    const { container } = render(<RouteMap ride={makeRide()} />);
    expect(container).toBeEmptyDOMElement();
    expect(routePoints({ ...ride, destination_point: null })).toBeNull();
  });

  it('projects with north up and keeps one place in the middle', () => {
    const { project, width, height } = fitProjection([{ lat: 40, lon: -89 }]);
    expect(project({ lat: 40, lon: -89 })).toEqual({ x: width / 2, y: height / 2 });
    const fit = fitProjection([
      { lat: 40, lon: -89 },
      { lat: 41, lon: -89 },
    ]);
    expect(fit.project({ lat: 41, lon: -89 }).y).toBeLessThan(fit.project({ lat: 40, lon: -89 }).y);
  });
});

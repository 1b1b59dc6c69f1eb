import type { Place } from '@shared/places';

/** Places as GET /api/places returns them. */
export const SPRINGFIELD_IL: Place = {
  id: 1201,
  name: 'Springfield',
  state: 'IL',
  zip: '62701',
  label: 'Springfield, IL',
  lat: 39.8,
  lon: -89.64,
};
export const SPRINGFIELD_MO: Place = {
  id: 1202,
  name: 'Springfield',
  state: 'MO',
  zip: '65801',
  label: 'Springfield, MO',
  lat: 37.21,
  lon: -93.29,
};
export const SPRINGFIELD_OH: Place = {
  id: 1203,
  name: 'Springfield',
  state: 'OH',
  zip: '45501',
  label: 'Springfield, OH',
  lat: 39.93,
  lon: -83.81,
};
export const DECATUR_IL: Place = {
  id: 1301,
  name: 'Decatur',
  state: 'IL',
  zip: '62521',
  label: 'Decatur, IL',
  lat: 39.84,
  lon: -88.95,
};

const GAZETTEER = [SPRINGFIELD_IL, SPRINGFIELD_MO, SPRINGFIELD_OH, DECATUR_IL];

/** A GET /places handler over the few places above: names starting with what was typed (from 2 letters). */
export function suggestFrom(path: string) {
  const q = (new URL(path, 'http://localhost').searchParams.get('q') ?? '').trim().toLowerCase();
  const items = q.length < 2 ? [] : GAZETTEER.filter((p) => p.label.toLowerCase().startsWith(q));
  return { body: { items } };
}

/** GET /places/:id handlers for the places above (spread into stubApi's routes); any other id is a 404 there. */
export const placesById = Object.fromEntries(
  GAZETTEER.map((p) => [`GET /places/${p.id}`, () => ({ body: p })] as const),
);

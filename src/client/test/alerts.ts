import type { SavedSearch } from '@shared/places';
import { uuid } from './factories';

/** A saved search of Browse Requests (override any field; a route alert has `ride_id`). */
export function makeSavedSearch(over: Partial<SavedSearch> = {}): SavedSearch {
  return {
    id: uuid(),
    name: 'Requests near Decatur, IL',
    kind: 'requests',
    filters: { near: 1201, within: 25 },
    near_label: 'Decatur, IL',
    ride_id: null,
    email: true,
    created_at: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

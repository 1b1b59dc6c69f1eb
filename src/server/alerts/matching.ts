import { sql, type SQL } from 'drizzle-orm';
import { CORRIDOR_DEFAULT_MILES, browsePath } from '../../shared/places';
import { alongRoutePath } from '../../shared/routes';
import { alongRideRowSql } from '../along-route';
import type { Db } from '../db/client';
import { savedSearchBox } from '../db/schema';
import { rowsOf } from '../db/result-rows';
import { Outbox } from '../events';
import { blockedWith } from '../blocks';
import { notify, type NewNotification } from '../notifications';
import { milesBetween } from '../places';
import { refreshRouteAlertBox } from './route-box';
import type { StoredFilters } from './service';

interface Matched {
  id: string;
  user_id: string;
  name: string;
  kind: 'requests' | 'rides';
  filters: StoredFilters;
  ride_id: string | null;
}

/**
 * The post's end (p.<lat>, p.<lon>) as a box of one point (x = longitude): GiST box_ops indexes `box @> box`, not
 * `box @> point`, and a box contains this one exactly when it contains the point (edges included).
 */
const pointOf = ([lat, lon]: [string, string]) => sql.raw(`box(point(p.${lon}, p.${lat}), point(p.${lon}, p.${lat}))`);

/** The post's end within the search's 'near' place's 'within' miles (the box held it already). */
function nearPoint([lat, lon]: [string, string]): SQL {
  const pLat = sql.raw(`p.${lat}`);
  const pLon = sql.raw(`p.${lon}`);
  return sql`(${pLat} is not null
    and ${milesBetween(pLat, pLon, { lat: sql`np.lat`, lon: sql`np.lon` })} <= (s.filters ->> 'within')::float8)`;
}

/**
 * The saved searches of `kind` that the post `p` (one row, materialized once with its folded `text`) matches,
 * other people's only, not across a block either way, the owner not suspended. 'near': either end of the post
 * within the place's miles; 'from' / 'to': the post's date inside (a request without a date matches any range);
 * 'q': every word of the search (stored folded in `words`) inside the post's text; 'verified': the poster has the
 * 'Verified' badge.
 *
 * Candidates (migration 0017): the searches of the kind without a box (their partial index), plus those whose box
 * holds one of the post's ends, a GiST range per end (the second leaves out what the first found, so UNION ALL
 * repeats none). A post without places meets no box. The rest is arithmetic on the few candidates.
 */
function matchingSql(kind: 'requests' | 'rides', post: SQL, ends: [string, string][], date: string, route: SQL): SQL {
  const from = sql`(s.filters ->> 'from')::date`;
  const to = sql`(s.filters ->> 'to')::date`;
  const box = savedSearchBox({
    boxMinLat: sql`c.box_min_lat`,
    boxMaxLat: sql`c.box_max_lat`,
    boxMinLon: sql`c.box_min_lon`,
    boxMaxLon: sql`c.box_max_lon`,
  });
  const holding = ends.map(
    (end, i) => sql`select c.* from saved_searches c
      where c.box_min_lat is not null and c.kind = ${kind} and ${box} @> ${pointOf(end)}
        ${sql.join(
          ends.slice(0, i).map((before) => sql`and not coalesce(${box} @> ${pointOf(before)}, false)`),
          sql` `,
        )}`,
  );
  return sql`
    with p as materialized (${post})
    select s.id, s.user_id, s.name, s.kind, s.filters, s.ride_id
    from p
    cross join lateral (
      select c.* from saved_searches c where c.box_min_lat is null and c.kind = ${kind}
      union all
      ${sql.join(holding, sql` union all `)}
    ) s
    left join places np on np.id = (s.filters ->> 'near')::int
    where s.user_id <> p.user_id
      and (s.filters ->> 'from' is null or p.${sql.raw(date)} is null or p.${sql.raw(date)} >= ${from})
      and (s.filters ->> 'to' is null or p.${sql.raw(date)} is null or p.${sql.raw(date)} <= ${to})
      and (s.filters ->> 'near' is null or (np.id is not null
        and (${sql.join(ends.map(nearPoint), sql` or `)})))
      and (s.words is null or not exists (select 1 from unnest(s.words) w where strpos(p.text, w) = 0))
      and (s.filters ->> 'verified' is null
        or exists (select 1 from profiles vp where vp.user_id = p.user_id and vp.verified))
      and ${route}
      -- Last, on the few searches left: one primary-key probe each (a join would be planned for all of them).
      and not exists (select 1 from users u where u.id = s.user_id and u.suspended_at is not null)
      and not ${blockedWith(sql`s.user_id`, sql`p.user_id`)}`;
}

/**
 * A route alert matches a new request along its ride (the default corridor, as 'Requests along this route'
 * opens), following each leg of a ride with stops (issue 38): both ends inside the alert's box first (around every
 * leg's corridor, kept up to date when the stops change), then the exact corridor of the legs and the direction, and
 * the request needed on or after the ride's date (or undated). The ride must still be active.
 */
function routeAlertSql(): SQL {
  const corridor = sql`${CORRIDOR_DEFAULT_MILES}::float8`;
  const inBox = (lat: string, lon: string) =>
    sql`p.${sql.raw(lat)} between s.box_min_lat and s.box_max_lat and p.${sql.raw(lon)} between s.box_min_lon and s.box_max_lon`;
  return sql`(s.ride_id is null or exists (
    select 1 from rides ar
    where ar.id = s.ride_id and ar.status = 'active' and ar.origin_lat is not null and ar.destination_lat is not null
      and p.pickup_lat is not null and p.delivery_lat is not null
      and ${inBox('pickup_lat', 'pickup_lon')} and ${inBox('delivery_lat', 'delivery_lon')}
      and (p.needed_by_date is null or p.needed_by_date >= ar.departure_date)
      and ${alongRideRowSql(
        'ar',
        { lat: sql`p.pickup_lat`, lon: sql`p.pickup_lon` },
        { lat: sql`p.delivery_lat`, lon: sql`p.delivery_lon` },
        corridor,
      )}))`;
}

const requestMatches = (id: string) =>
  matchingSql(
    'requests',
    sql`select r.*, rr_fold(r.title || ' ' || r.description) as text from delivery_requests r where r.id = ${id}`,
    [
      ['pickup_lat', 'pickup_lon'],
      ['delivery_lat', 'delivery_lon'],
    ],
    'needed_by_date',
    routeAlertSql(),
  );

const rideMatches = (id: string) =>
  matchingSql(
    'rides',
    sql`select r.*, rr_fold(coalesce(r.notes, '')) as text from rides r where r.id = ${id}`,
    [
      ['origin_lat', 'origin_lon'],
      ['destination_lat', 'destination_lon'],
    ],
    'departure_date',
    sql`s.ride_id is null`,
  );

/**
 * One 'search_match' per matched saved search, grouped while unread (notify's group key `search:<id>`: the count
 * grows), written in the creating transaction `tx` with its live events. Its e-mail (when the search's Email is
 * on) is throttled to one per ALERT_EMAIL_INTERVAL_MINUTES per search by the notification mail job.
 */
async function notifyMatches(tx: Db, query: SQL): Promise<number> {
  const matched = rowsOf<Matched>(await tx.execute(query));
  if (!matched.length) return 0;
  const items: NewNotification[] = matched.map((s) => ({
    userId: s.user_id,
    type: 'search_match',
    data: {
      kind: s.kind,
      search_id: s.id,
      search_name: s.name,
      ...(s.ride_id
        ? { ride_id: s.ride_id, path: alongRoutePath(s.ride_id) }
        : { path: browsePath(s.kind, s.filters) }),
    },
  }));
  const out = new Outbox();
  await notify(tx, out, items);
  await out.flush(tx);
  return matched.length;
}

/**
 * The callbacks app.ts hands to the ride and request services: they run inside the transaction that creates the
 * post (or changes a ride's stops), so its alerts are written (or not) with it. Each of the first two resolves to the
 * number of saved searches notified.
 */
export const alertMatching = {
  requestCreated: (tx: Db, requestId: string) => notifyMatches(tx, requestMatches(requestId)),
  rideCreated: (tx: Db, rideId: string) => notifyMatches(tx, rideMatches(rideId)),
  /** A ride's stops were replaced: its route alert's box follows the new legs. */
  rideStopsChanged: (tx: Db, rideId: string) => refreshRouteAlertBox(tx, rideId),
};

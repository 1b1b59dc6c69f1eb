import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORRIDOR_DEFAULT_MILES } from '../../shared/places';
import { corridorBox } from '../along-route';
import { boxAround } from '../places';
import { migrationSteps } from '../test/migrations';

/**
 * Migration 0017 on a database that already holds saved searches made before it: each 'Near' search gets the box
 * the service now writes (boxAround of its place and miles), each route alert its ride's corridor box, the others
 * none; every search its folded words; and last_emailed_at is gone.
 */
const migration = migrationSteps('0017_search_match_boxes');

let db: PGlite;
const ann = '00000000-0000-4000-8000-00000000000a';
const ride = '00000000-0000-4000-8000-0000000000c1';
const ids = {
  near: '00000000-0000-4000-8000-0000000000d1',
  route: '00000000-0000-4000-8000-0000000000d2',
  words: '00000000-0000-4000-8000-0000000000d3',
};
const springfield = { id: 1, lat: 39.7817, lon: -89.6501 };
const decatur = { id: 2, lat: 39.8403, lon: -88.9548 };

beforeAll(async () => {
  db = await PGlite.create({ extensions: { pg_trgm, unaccent } });
  await migration.before(db);
  await db.exec(`
    insert into users (id, email, password_hash, age_confirmed_at) values ('${ann}', 'ann@example.com', 'x', now());
    insert into places (id, name, state, zip, lat, lon) values
      (1, 'Springfield', 'IL', '62701', ${springfield.lat}, ${springfield.lon}),
      (2, 'Decatur', 'IL', '62521', ${decatur.lat}, ${decatur.lon});
    insert into rides (id, user_id, origin, destination, departure_date, origin_place_id, origin_lat, origin_lon,
      destination_place_id, destination_lat, destination_lon)
    values ('${ride}', '${ann}', 'Springfield', 'Decatur', '2099-06-15', 1, ${springfield.lat}, ${springfield.lon},
      2, ${decatur.lat}, ${decatur.lon});
    insert into saved_searches (id, user_id, name, kind, filters, ride_id, last_emailed_at) values
      ('${ids.near}', '${ann}', 'Near', 'requests', '{"near": 2, "within": 25, "q": "Café, HAY-bales"}', null, now()),
      ('${ids.route}', '${ann}', 'Along', 'requests', '{}', '${ride}', null),
      ('${ids.words}', '${ann}', 'Words', 'rides', '{"q": "eggs"}', null, null);
  `);
  await migration.run(db);
});
afterAll(async () => {
  await db?.close();
});

describe('migration 0017 over existing saved searches', () => {
  it('gives each its box and folded words, as saving one now does', async () => {
    const { rows } = await db.query<{
      id: string;
      box: [number, number, number, number] | [null, null, null, null];
      words: string[] | null;
    }>(`select id, array[box_min_lat, box_max_lat, box_min_lon, box_max_lon] as box, words
      from saved_searches order by id`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const near = boxAround(decatur, 25);
    const route = corridorBox(springfield, decatur, CORRIDOR_DEFAULT_MILES);
    const expectBox = (got: (number | null)[], want: typeof near) =>
      [want.minLat, want.maxLat, want.minLon, want.maxLon].forEach((v, i) => expect(got[i]).toBeCloseTo(v, 9));
    expectBox(byId.get(ids.near)!.box, near);
    expectBox(byId.get(ids.route)!.box, route);
    expect(byId.get(ids.words)!.box).toEqual([null, null, null, null]);
    expect(byId.get(ids.near)!.words).toEqual(['cafe', 'hay', 'bales']);
    expect(byId.get(ids.route)!.words).toBeNull();
    expect(byId.get(ids.words)!.words).toEqual(['eggs']);
  });

  it('drops last_emailed_at', async () => {
    const { rows } = await db.query(
      `select 1 from information_schema.columns where table_name = 'saved_searches' and column_name = 'last_emailed_at'`,
    );
    expect(rows).toEqual([]);
  });
});

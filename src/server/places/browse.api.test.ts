import { describe, expect, it } from 'vitest';
import { INVALID_CURSOR_MESSAGE, type DeliveryRequest, type Ride } from '../../shared/marketplace';
import { DATE_MESSAGE, DATE_ORDER_MESSAGE, PLACE_NOT_FOUND, SEARCH_MESSAGE, WITHIN_MESSAGE } from '../../shared/places';
import { places } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { collectPages, requestBody, rideBody, type PageBody } from '../test/marketplace';

/**
 * Posting with chosen places and Browse's filters, for rides and requests alike, on a few places inserted here
 * (the gazetteer itself is not needed). Each test works in its own region and with its own search word, so the
 * listings of the others never show up in its results.
 */
const { ctx, call, signUpAndIn: signUp } = setupTestApp();
let people = 0;
/** Each from an address of its own: sign-ups are limited per address. */
const signUpAndIn = () => signUp('Place Tester', `10.14.${++people}.1`);

let nextId = 1_000_000;
/** Places north of (lat, lon) at these latitude offsets: 0.05° is about 3.5 miles, 0.7° about 48. */
async function region(lat: number, lon: number, offsets: number[]) {
  const rows = [0, ...offsets].map((d) => ({
    id: nextId++,
    name: `Town ${nextId}`,
    state: 'KS',
    zip: String(60000 + (nextId % 30000)),
    lat: lat + d,
    lon,
  }));
  await ctx.database.db.insert(places).values(rows);
  return rows;
}

/** Their distances from the first place, as the API gives them (to a tenth of a mile). */
const MILES = { 0.05: 3.5, 0.1: 6.9, 0.2: 13.8, 0.3: 20.7, 0.5: 34.5, 0.7: 48.4, 1: 69.1 } as const;

type Kind = 'rides' | 'requests';
type Item = (Ride | DeliveryRequest) & { distance_miles?: number };

/** A listing of `kind` between two places (ids or null for free text), with extra fields. */
async function post(token: string, kind: Kind, ends: [number | null, number | null], extra = {}) {
  const body =
    kind === 'rides'
      ? rideBody({ origin_place_id: ends[0], destination_place_id: ends[1], ...extra })
      : requestBody({ pickup_place_id: ends[0], delivery_place_id: ends[1], ...extra });
  const res = await call<Item>('POST', `/${kind}`, { cookie: token, body });
  if (res.status !== 201) throw new Error(`${kind}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const browse = (token: string, kind: Kind, query: string) =>
  call<PageBody<Item> & { code?: string; message?: string }>('GET', `/${kind}/browse?${query}`, { cookie: token });

async function browseAll(token: string, kind: Kind, query: string, limit = 3) {
  return collectPages<Item>((cursor) =>
    browse(token, kind, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`),
  );
}

const points = (item: Item) =>
  'origin_point' in item ? [item.origin_point, item.destination_point] : [item.pickup_point, item.delivery_point];

describe.each(['rides', 'requests'] as const)('%s with places', (kind) => {
  it('stores a chosen place with its coordinates, keeps free text as is, and shows the points in every list', async () => {
    const { token } = await signUpAndIn();
    const [a, b] = await region(38, -98 - (kind === 'rides' ? 0 : 1), [0.5]);
    const placed = await post(token, kind, [a!.id, b!.id]);
    expect(points(placed)).toEqual([
      { place_id: a!.id, lat: a!.lat, lon: a!.lon },
      { place_id: b!.id, lat: b!.lat, lon: b!.lon },
    ]);
    expect(placed.distance_miles).toBeUndefined();
    const typed = await post(token, kind, [null, null]);
    expect(points(typed)).toEqual([null, null]);
    const blank = await post(token, kind, [a!.id, null], kind === 'rides' ? { destination_place_id: '' } : {});
    expect(points(blank)).toEqual([{ place_id: a!.id, lat: a!.lat, lon: a!.lon }, null]);
    const mine = await call<PageBody<Item>>('GET', `/${kind}/mine?limit=50`, { cookie: token });
    const listed = mine.body.items.find((i) => i.id === placed.id)!;
    expect(points(listed)).toEqual(points(placed));
    const browsed = await browse(token, kind, 'limit=50');
    expect(points(browsed.body.items.find((i) => i.id === placed.id)!)).toEqual(points(placed));
    expect(points(browsed.body.items.find((i) => i.id === typed.id)!)).toEqual([null, null]);
  });

  it('refuses a place id that does not exist, or is not an id, with 400 and stores nothing', async () => {
    const { token } = await signUpAndIn();
    const [a] = await region(38, -96 - (kind === 'rides' ? 0 : 1), []);
    const before = await call<PageBody<Item>>('GET', `/${kind}/mine`, { cookie: token });
    for (const ends of [
      [a!.id, 999_999_999],
      [999_999_998, null],
      ['abc', null],
      [-3, a!.id],
      [1.5, null],
    ] as const) {
      const body =
        kind === 'rides'
          ? rideBody({ origin_place_id: ends[0], destination_place_id: ends[1] })
          : requestBody({ pickup_place_id: ends[0], delivery_place_id: ends[1] });
      const res = await call('POST', `/${kind}`, { cookie: token, body });
      expect(res.status, JSON.stringify(ends)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', message: PLACE_NOT_FOUND });
    }
    const after = await call<PageBody<Item>>('GET', `/${kind}/mine`, { cookie: token });
    expect(after.body.items).toHaveLength(before.body.items.length);
  });

  it("'Near' keeps listings with either end within the radius, nearest end first, with the distance", async () => {
    const { token } = await signUpAndIn();
    const lon = -90 - (kind === 'rides' ? 0 : 2);
    const [c, p5, p10, p20, p35, p48, p69] = await region(44, lon, [0.05, 0.1, 0.3, 0.5, 0.7, 1]);
    const far = (await region(30, lon, []))[0]!;
    const atCenter = await post(token, kind, [c!.id, far.id]);
    const near5End = await post(token, kind, [far.id, p5!.id]);
    const both = await post(token, kind, [p20!.id, p10!.id]);
    const at35 = await post(token, kind, [p35!.id, p69!.id]);
    const at48 = await post(token, kind, [p48!.id, null]);
    await post(token, kind, [p69!.id, far.id]);
    await post(token, kind, [null, null]);

    const within = async (miles: number | null) =>
      (await browseAll(token, kind, `near=${c!.id}${miles ? `&within=${miles}` : ''}`)).items;
    const ids = (items: Item[]) => items.map((i) => i.id);
    expect(ids(await within(5))).toEqual([atCenter.id, near5End.id]);
    expect(ids(await within(10))).toEqual([atCenter.id, near5End.id, both.id]);
    // The default is 25 miles.
    expect(ids(await within(null))).toEqual([atCenter.id, near5End.id, both.id]);
    const fifty = await within(50);
    expect(ids(fifty)).toEqual([atCenter.id, near5End.id, both.id, at35.id, at48.id]);
    expect(fifty.map((i) => i.distance_miles)).toEqual([0, MILES[0.05], MILES[0.1], MILES[0.5], MILES[0.7]]);
    // Without 'Near' no distance is given.
    const plain = await browse(token, kind, 'limit=5');
    expect(plain.body.items.every((i) => i.distance_miles === undefined)).toBe(true);
  });

  it('pages through listings nearest first, ties by id, with a cursor carrying the distance', async () => {
    const { token } = await signUpAndIn();
    const lon = -86 - (kind === 'rides' ? 0 : 2);
    const ring = await region(36, lon, [0.05, 0.1, 0.2, 0.3]);
    const posted: { id: string; miles: number }[] = [];
    const ringMiles = [0, MILES[0.05], MILES[0.1], MILES[0.2], MILES[0.3]];
    // Three listings at each place: ties that straddle page ends.
    for (const [i, place] of ring.entries())
      for (let n = 0; n < 3; n++)
        posted.push({ id: (await post(token, kind, [place.id, null])).id, miles: ringMiles[i]! });
    const { items, pages } = await browseAll(token, kind, `near=${ring[0]!.id}&within=25`, 4);
    expect(pages).toBe(4);
    const expected = posted.sort((x, y) => x.miles - y.miles || (x.id < y.id ? -1 : 1));
    expect(items.map((i) => i.id)).toEqual(expected.map((p) => p.id));
    expect(items.map((i) => i.distance_miles)).toEqual(expected.map((p) => p.miles));
  });

  it("'Search' finds every word, ignoring case, accents and punctuation", async () => {
    const { token } = await signUpAndIn();
    const text =
      kind === 'rides'
        ? { origin: 'Café Müller, Co-op', destination: 'Zorbfield', notes: "Room for O'Brien's crème brûlée" }
        : {
            title: 'Café crème for Zorbfield',
            description: "O'Brien's Co-op order: brûlée",
            pickup_location: 'Müller',
          };
    const hit = await post(token, kind, [null, null], text);
    const other = kind === 'rides' ? { destination: 'Zorbfield' } : { title: 'Zorbfield', pickup_location: 'Barn' };
    await post(token, kind, [null, null], other);
    const found = async (q: string) =>
      (await browseAll(token, kind, `q=${encodeURIComponent(q)}`)).items.map((i) => i.id);
    for (const q of ['zorbfield cafe', 'ZORBFIELD Café', 'zorbfield coop', 'zorbfield co-op', 'zorbfield obriens']) {
      expect(await found(q), q).toEqual([hit.id]);
    }
    expect(await found('zorbfield creme brulee muller')).toEqual([hit.id]);
    expect(await found('zorbfield  ')).toHaveLength(2);
    expect(await found('zorbfield tractor')).toEqual([]);
    // Quotes, backslashes and LIKE wildcards are punctuation: ignored, never SQL.
    expect(await found("zorbfield O'Brien's")).toEqual([hit.id]);
    expect(await found("zorbfield cafe' or ''='")).toEqual([hit.id]);
    expect(await found('zorbfield \\ % _')).toHaveLength(2);
    expect(await found('zorbfield c_fe')).toEqual([]);
  });

  it("'From' and 'To' keep the dates in range (a request without a date matches any range)", async () => {
    const { token } = await signUpAndIn();
    const word = `Quillmoor${kind}`;
    const on = async (date: string | null) =>
      post(
        token,
        kind,
        [null, null],
        kind === 'rides' ? { departure_date: date, notes: word } : { needed_by_date: date, description: word },
      );
    const early = await on('2098-03-01');
    const mid = await on('2098-03-15');
    const late = await on('2098-04-01');
    const undated = kind === 'requests' ? [(await on(null)).id] : [];
    const found = async (query: string) =>
      new Set((await browseAll(token, kind, `q=${word}&${query}`)).items.map((i) => i.id));
    expect(await found('from=2098-03-10&to=2098-03-31')).toEqual(new Set([mid.id, ...undated]));
    expect(await found('from=2098-03-15')).toEqual(new Set([mid.id, late.id, ...undated]));
    expect(await found('to=2098-03-15')).toEqual(new Set([early.id, mid.id, ...undated]));
    expect(await found('from=2098-03-15&to=2098-03-15')).toEqual(new Set([mid.id, ...undated]));
    expect(await found('from=&to=')).toEqual(new Set([early.id, mid.id, late.id, ...undated]));
  });

  it('combines every filter, and pages a filtered list in its usual order', async () => {
    const { token } = await signUpAndIn();
    const lon = -82 - (kind === 'rides' ? 0 : 2);
    const [c, p7, p35] = await region(34, lon, [0.1, 0.5]);
    const word = `Brambleton${kind}`;
    const dated = (date: string) =>
      kind === 'rides' ? { departure_date: date, notes: word } : { needed_by_date: date, description: word };
    const match = await post(token, kind, [p7!.id, null], dated('2098-06-10'));
    await post(token, kind, [p35!.id, null], dated('2098-06-10'));
    await post(token, kind, [p7!.id, null], dated('2098-08-10'));
    await post(token, kind, [p7!.id, null], kind === 'rides' ? { departure_date: '2098-06-10' } : {});
    const all = await browseAll(token, kind, `near=${c!.id}&within=10&from=2098-06-01&to=2098-06-30&q=${word}`);
    expect(all.items.map((i) => i.id)).toEqual([match.id]);
    expect(all.items[0]!.distance_miles).toBe(MILES[0.1]);
    // Without 'Near': the list's own order (rides by departure, requests newest first), across pages.
    const byWord = await browseAll(token, kind, `q=${word}`, 1);
    expect(byWord.pages).toBe(3);
    if (kind === 'rides') {
      const dates = byWord.items.map((i) => (i as Ride).departure_date);
      expect(dates).toEqual([...dates].sort());
    } else {
      const created = byWord.items.map((i) => i.created_at);
      expect(created).toEqual([...created].sort().reverse());
    }
  });

  it('answers 400 with the contract message for each bad filter', async () => {
    const { token } = await signUpAndIn();
    const [c] = await region(32, -80 - (kind === 'rides' ? 0 : 2), []);
    const cases: [string, string][] = [
      ['near=999999999', PLACE_NOT_FOUND],
      ['near=abc', PLACE_NOT_FOUND],
      ['near=0', PLACE_NOT_FOUND],
      [`near=${c!.id}&within=0`, WITHIN_MESSAGE],
      [`near=${c!.id}&within=1000`, WITHIN_MESSAGE],
      [`near=${c!.id}&within=7`, WITHIN_MESSAGE],
      ['within=ten', WITHIN_MESSAGE],
      ['from=2098-05-10&to=2098-05-09', DATE_ORDER_MESSAGE],
      ['from=2098-02-30', DATE_MESSAGE],
      ['to=tomorrow', DATE_MESSAGE],
      [`q=${'a'.repeat(201)}`, SEARCH_MESSAGE],
      ['cursor=not-a-cursor', INVALID_CURSOR_MESSAGE],
    ];
    for (const [query, message] of cases) {
      const res = await browse(token, kind, query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'validation_error', message });
    }
    // A cursor of one order is no cursor of the other: a 'Near' cursor without 'Near', and the reverse.
    await post(token, kind, [c!.id, null]);
    await post(token, kind, [c!.id, null]);
    const nearPage = await browse(token, kind, `near=${c!.id}&limit=1`);
    expect(nearPage.body.next_cursor).toBeTruthy();
    const swapped = await browse(token, kind, `q=x&cursor=${nearPage.body.next_cursor}`);
    expect(swapped.status).toBe(400);
    expect(swapped.body).toMatchObject({ message: INVALID_CURSOR_MESSAGE });
    const plainPage = await browse(token, kind, 'limit=1');
    const back = await browse(token, kind, `near=${c!.id}&cursor=${plainPage.body.next_cursor}`);
    expect(back.status).toBe(400);
    expect(back.body).toMatchObject({ message: INVALID_CURSOR_MESSAGE });
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/notifications';
import { browsePath, type SavedSearch } from '../../shared/places';
import { alongRoutePath } from '../../shared/routes';
import { profiles, savedSearches } from '../db/schema';
import { boxAround } from '../places';
import { setupTestApp } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { pointOnRide, routeHelpers } from '../test/route';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { place, postRide, postRequest, newRequestAt, newRideAt } = routeHelpers(() => ctx.database.db, call);

const save = async (token: string, body: { name: string; kind: 'requests' | 'rides'; filters: object }) => {
  const res = await call<SavedSearch>('POST', '/saved-searches', { cookie: token, body });
  if (res.status !== 201) throw new Error(`not saved: ${JSON.stringify(res.body)}`);
  return res.body;
};
const matches = async (token: string) =>
  (await call<PageBody<Notification>>('GET', '/notifications', { cookie: token })).body.items.filter(
    (n) => n.type === 'search_match',
  );

/** Each test searches around its own town, 2° of latitude from the others'. */
let band = 0;
const town = () => ({ lat: 30 + 2 * ++band, lon: -100 });
/** `miles` north of a point. */
const north = (p: { lat: number; lon: number }, miles: number) => ({ lat: p.lat + miles / 69.09, lon: p.lon });

describe('alerts for new requests', () => {
  it('a request posted through the API notifies the owners of matching searches, not the poster', async () => {
    const [ana, ben, cy] = [await signUpAndIn('Ana'), await signUpAndIn('Ben'), await signUpAndIn('Cy')];
    const coffee = await save(ana.token, { name: 'Coffee', kind: 'requests', filters: { q: 'CAFE' } });
    await save(ben.token, { name: 'My own', kind: 'requests', filters: { q: 'cafe' } });
    await save(cy.token, { name: 'Rides', kind: 'rides', filters: { q: 'cafe' } });

    await postRequest(ben.token, null, null, { title: 'Café beans', description: 'Two sacks' });
    const [notice, ...more] = await matches(ana.token);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      text: 'A new request matches your search “Coffee”.',
      link: browsePath('requests', coffee.filters),
      read_at: null,
    });
    expect(notice!.link).toBe('/dashboard/browse-requests?q=CAFE');
    expect(await matches(ben.token)).toEqual([]);
    expect(await matches(cy.token)).toEqual([]);
  });

  it('text: every word, accents and punctuation ignored, in the title or description', async () => {
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    await save(ana.token, { name: 'Hay', kind: 'requests', filters: { q: 'hay, BALES!' } });
    await postRequest(ben.token, null, null, { title: 'Straw', description: 'only straw' });
    await postRequest(ben.token, null, null, { title: 'Hay', description: 'no bails here' });
    expect(await matches(ana.token)).toEqual([]);
    await postRequest(ben.token, null, null, { title: 'Round bales', description: 'Héy — good hay' });
    expect(await matches(ana.token)).toHaveLength(1);
  });

  it("dates: the request's needed-by date inside From-To, or no date at all", async () => {
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    await save(ana.token, {
      name: 'June',
      kind: 'requests',
      filters: { from: '2099-06-01', to: '2099-06-30', q: 'june-test' },
    });
    const post = (needed: string | null) =>
      postRequest(ben.token, null, null, { title: 'june-test', needed_by_date: needed });
    await post('2099-05-31');
    await post('2099-07-01');
    expect(await matches(ana.token)).toEqual([]);
    await post('2099-06-01');
    await post('2099-06-30');
    await post(null);
    const [grouped] = await matches(ana.token);
    expect(grouped!.text).toBe('3 new requests match your search “June”.');
  });

  it("near: the pickup or the delivery within the place's miles; a request without places never", async () => {
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    const center = town();
    const near = await place(center, 'Centerville');
    await save(ana.token, { name: 'Ten miles', kind: 'requests', filters: { near: near.id, within: 10 } });
    await postRequest(ben.token, null, null);
    await newRequestAt(ben.user.id, north(center, 12), north(center, 40));
    expect(await matches(ana.token)).toEqual([]);
    await newRequestAt(ben.user.id, north(center, 9.5), north(center, 40));
    expect((await matches(ana.token))[0]!.text).toBe('A new request matches your search “Ten miles”.');
    await newRequestAt(ben.user.id, north(center, 40), north(center, -9.5));
    expect((await matches(ana.token))[0]!.text).toBe('2 new requests match your search “Ten miles”.');
  });

  it("near: stores the circle's box; both ends in it notify once; a box corner outside the circle never", async () => {
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    const center = town();
    const near = await place(center, 'Boxville');
    const search = await save(ana.token, { name: 'Box', kind: 'requests', filters: { near: near.id, within: 10 } });
    const [row] = await ctx.database.db.select().from(savedSearches).where(eq(savedSearches.id, search.id));
    const box = boxAround(center, 10);
    expect([row!.boxMinLat, row!.boxMaxLat, row!.boxMinLon, row!.boxMaxLon]).toEqual([
      box.minLat,
      box.maxLat,
      box.minLon,
      box.maxLon,
    ]);
    // Inside the box, 9.9 miles north and east of the center: 14 miles away, outside the circle.
    const corner = {
      lat: north(center, 9.9).lat,
      lon: center.lon + 9.9 / (69.09 * Math.cos((center.lat * Math.PI) / 180)),
    };
    await newRequestAt(ben.user.id, corner, corner);
    expect(await matches(ana.token)).toEqual([]);
    await newRequestAt(ben.user.id, north(center, 2), north(center, -3));
    expect((await matches(ana.token)).map((n) => n.text)).toEqual(['A new request matches your search “Box”.']);
  });

  it('each search has its own notification; a read one is followed by a new one', async () => {
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    await save(ana.token, { name: 'Plums', kind: 'requests', filters: { q: 'plums' } });
    await save(ana.token, { name: 'Fruit', kind: 'requests', filters: { q: 'fruit' } });
    await postRequest(ben.token, null, null, { title: 'Plums', description: 'fruit crates' });
    await postRequest(ben.token, null, null, { title: 'Plums', description: 'more crates' });
    const texts = (await matches(ana.token)).map((n) => n.text).sort();
    expect(texts).toEqual(['2 new requests match your search “Plums”.', 'A new request matches your search “Fruit”.']);
    const plums = (await matches(ana.token)).find((n) => n.text.includes('Plums'))!;
    expect((await call('POST', `/notifications/${plums.id}/read`, { cookie: ana.token, body: {} })).status).toBe(200);
    await postRequest(ben.token, null, null, { title: 'Plums', description: 'last ones' });
    const after = await matches(ana.token);
    expect(after.filter((n) => n.text.includes('Plums')).map((n) => [n.text, n.read_at === null])).toEqual([
      ['A new request matches your search “Plums”.', true],
      ['2 new requests match your search “Plums”.', false],
    ]);
  });

  it('nothing across a block, either way', async () => {
    const [ana, ben, cy] = [await signUpAndIn(), await signUpAndIn(), await signUpAndIn()];
    await save(ana.token, { name: 'Quinces', kind: 'requests', filters: { q: 'quinces' } });
    await save(cy.token, { name: 'Quinces', kind: 'requests', filters: { q: 'quinces' } });
    expect((await call('POST', '/blocks', { cookie: ana.token, body: { user_id: ben.user.id } })).status).toBe(201);
    expect((await call('POST', '/blocks', { cookie: ben.token, body: { user_id: cy.user.id } })).status).toBe(201);
    await postRequest(ben.token, null, null, { title: 'Quinces' });
    expect(await matches(ana.token)).toEqual([]);
    expect(await matches(cy.token)).toEqual([]);
  });
});

describe('route alerts', () => {
  it('a new request along the ride (default corridor, direction, date) notifies its driver', async () => {
    const [dana, ben] = [await signUpAndIn('Dana'), await signUpAndIn('Ben')];
    const origin = town();
    const destination = { lat: origin.lat + 0.3, lon: origin.lon + 0.6 };
    const at = (along: number, offset = 0) => pointOnRide(origin, destination, along, offset);
    const ride = await postRide(dana.token, origin, destination, {
      origin: 'Springfield',
      destination: 'Decatur',
      departure_date: '2099-06-15',
    });
    expect((await call('POST', `/rides/${ride.id}/alert`, { cookie: dana.token })).status).toBe(201);

    await newRequestAt(ben.user.id, at(2, 6), at(20)); // outside the 5-mile corridor
    await newRequestAt(ben.user.id, at(20), at(2)); // against the direction of travel
    await newRequestAt(ben.user.id, at(2), at(20), { neededBy: '2099-06-14' }); // needed before the ride
    await newRequestAt(dana.user.id, at(2), at(20)); // the driver's own
    expect(await matches(dana.token)).toEqual([]);

    await newRequestAt(ben.user.id, at(2, 4), at(20, -4), { neededBy: null });
    const [notice] = await matches(dana.token);
    expect(notice).toMatchObject({
      text: 'A new request is along your route (Along Springfield → Decatur).',
      link: alongRoutePath(ride.id),
    });
    await newRequestAt(ben.user.id, at(-4), at(5), { neededBy: '2099-06-15' });
    expect((await matches(dana.token))[0]!.text).toBe(
      '2 new requests are along your route (Along Springfield → Decatur).',
    );

    // Off: nothing more.
    expect((await call('DELETE', `/rides/${ride.id}/alert`, { cookie: dana.token })).status).toBe(204);
    await newRequestAt(ben.user.id, at(2), at(20));
    expect((await matches(dana.token))[0]!.text).toContain('2 new requests');
  });
});

describe('alerts for new rides', () => {
  it('near the origin or destination, departing inside From-To, notes containing the words', async () => {
    const [ana, dana] = [await signUpAndIn(), await signUpAndIn()];
    const center = town();
    const near = await place(center, 'Centerville');
    const search = await save(ana.token, {
      name: 'Trailer rides',
      kind: 'rides',
      filters: { near: near.id, within: 25, from: '2099-03-01', to: '2099-03-31', q: 'trailer' },
    });
    const far = north(center, 80);
    await newRideAt(dana.user.id, north(center, 20), far, { notes: 'Big trailer', date: '2099-04-01' }); // date
    await newRideAt(dana.user.id, north(center, 20), far, { notes: 'Back seat', date: '2099-03-10' }); // words
    await newRideAt(dana.user.id, north(center, 30), far, { notes: 'Big trailer', date: '2099-03-10' }); // far
    await postRide(dana.token, null, null, { notes: 'Big trailer', departure_date: '2099-03-10' }); // no places
    expect(await matches(ana.token)).toEqual([]);
    await newRideAt(dana.user.id, far, north(center, -24), { notes: 'Big TRAILER', date: '2099-03-31' });
    const [notice] = await matches(ana.token);
    expect(notice).toMatchObject({
      text: 'A new ride matches your search “Trailer rides”.',
      link: browsePath('rides', search.filters),
    });
    expect(notice!.link).toBe(
      `/dashboard/browse-rides?near=${near.id}&within=25&from=2099-03-01&to=2099-03-31&q=trailer`,
    );
  });
});

describe("'Verified members only' in a saved search (issue 37)", () => {
  it('matches only new listings whose poster has the Verified badge; its link keeps the filter', async () => {
    const [ana, ben, cara] = [await signUpAndIn(), await signUpAndIn(), await signUpAndIn()];
    const now = new Date();
    await ctx.database.db
      .update(profiles)
      .set({ emailVerifiedAt: now, phone: `+1555${Date.now() % 1e7}`, phoneVerifiedAt: now, idCheckedAt: now })
      .where(eq(profiles.userId, cara.user.id));
    const search = await save(ana.token, {
      name: 'Trusted',
      kind: 'requests',
      filters: { q: 'lumber', verified: '1' },
    });
    expect(search.filters).toMatchObject({ verified: '1' });
    await postRequest(ben.token, null, null, { title: 'Lumber', description: 'from an unverified poster' });
    expect(await matches(ana.token)).toEqual([]);
    await postRequest(cara.token, null, null, { title: 'Lumber', description: 'from a verified poster' });
    const [notice, ...more] = await matches(ana.token);
    expect(more).toEqual([]);
    expect(notice!.link).toBe('/dashboard/browse-requests?q=lumber&verified=1');
  });
});

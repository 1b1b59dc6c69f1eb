import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest, Ride } from '../../shared/marketplace';
import { places, users } from '../db/schema';
import { setupTestApp, type CallResult } from '../test/harness';
import { requestBody, rideBody, type PageBody } from '../test/marketplace';

/**
 * 'Near' cuts its page on the point indexes before reading rows (nearestPage), with the owner checks (suspended,
 * blocked either way) inside that cut: hidden listings between and around page ends must never shorten a page
 * while more visible ones exist, nor show up.
 */
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

let nextId = 2_000_000;
/** Places north of (lat, lon) at these latitude offsets (0.05° is about 3.5 miles). */
async function region(lat: number, lon: number, offsets: number[]) {
  const rows = offsets.map((d) => ({
    id: nextId++,
    name: `Ring ${nextId}`,
    state: 'KS',
    zip: '67000',
    lat: lat + d,
    lon,
  }));
  await ctx.database.db.insert(places).values(rows);
  return rows;
}

type Kind = 'rides' | 'requests';
type Item = (Ride | DeliveryRequest) & { distance_miles?: number };

async function post(token: string, kind: Kind, ends: [number | null, number | null]) {
  const body =
    kind === 'rides'
      ? rideBody({ origin_place_id: ends[0], destination_place_id: ends[1] })
      : requestBody({ pickup_place_id: ends[0], delivery_place_id: ends[1] });
  const res = await call<Item>('POST', `/${kind}`, { cookie: token, body });
  if (res.status !== 201) throw new Error(`${kind}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every page of a 'Near' list, as the client follows them. */
async function pages(token: string, kind: Kind, query: string, limit: number) {
  const out: Item[][] = [];
  let cursor: string | null = null;
  do {
    const res: CallResult<PageBody<Item>> = await call<PageBody<Item>>(
      'GET',
      `/${kind}/browse?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      { cookie: token },
    );
    expect(res.status).toBe(200);
    out.push(res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor && out.length < 50);
  return out;
}

describe.each(['rides', 'requests'] as const)("%s: 'Near' pages around hidden listings", (kind) => {
  it('returns full pages of the visible listings only, whatever sits between them', async () => {
    const [me, ana, blocked, blocker, suspended] = [
      await signUpAndIn('Viewer'),
      await signUpAndIn('Ana'),
      await signUpAndIn('Blocked'),
      await signUpAndIn('Blocker'),
      await signUpAndIn('Suspended'),
    ];
    expect((await call('POST', '/blocks', { cookie: me.token, body: { user_id: blocked.user.id } })).status).toBe(201);
    expect((await call('POST', '/blocks', { cookie: blocker.token, body: { user_id: me.user.id } })).status).toBe(201);
    const lon = kind === 'rides' ? -101 : -102;
    const ring = await region(41, lon, [0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06]);
    // At every distance: Ana's listing, and one of each hidden owner's, nearer than the next visible one.
    const visible: string[] = [];
    for (const place of ring) {
      for (const hidden of [blocked, blocker, suspended]) await post(hidden.token, kind, [place.id, null]);
      visible.push((await post(ana.token, kind, [null, place.id])).id);
    }
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.user.id));

    for (const limit of [1, 2, 3]) {
      const got = await pages(me.token, kind, `near=${ring[0]!.id}&within=5`, limit);
      expect(got.flat().map((i) => i.id)).toEqual(visible);
      // Every page but the last is full; the last is not empty.
      expect(got.slice(0, -1).every((p) => p.length === limit)).toBe(true);
      expect(got.at(-1)!.length).toBeGreaterThan(0);
      expect(got.length).toBe(Math.ceil(visible.length / limit));
    }
    // The hidden owners themselves still see their listings (the checks are the viewer's).
    const own = await pages(blocked.token, kind, `near=${ring[0]!.id}&within=5`, 50);
    expect(own.flat().length).toBe(ring.length * 3);
  });

  it('gives a listing with both ends near once, at its nearer end', async () => {
    const { token } = await signUpAndIn();
    const me = await signUpAndIn();
    const [c, p1, p2] = await region(42, kind === 'rides' ? -101 : -102, [0, 0.02, 0.04]);
    const both = await post(token, kind, [p2!.id, p1!.id]);
    const [items] = await pages(me.token, kind, `near=${c!.id}&within=5`, 10);
    expect(items!.map((i) => [i.id, i.distance_miles])).toEqual([[both.id, 1.4]]);
  });
});

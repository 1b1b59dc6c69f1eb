import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSteps } from '../test/migrations';

/**
 * Migration 0005 (booking lifecycle) on a database that already holds bookings made before it: each gets its
 * requester, its 'offered' event, and the offers a deleted request had turned 'cancelled' become 'declined' with a
 * 'request_withdrawn' event, as deleting a request now does.
 */
const migration = migrationSteps('0005_booking_lifecycle');

let db: PGlite;
const ids = {
  ann: '00000000-0000-4000-8000-00000000000a',
  bob: '00000000-0000-4000-8000-00000000000b',
  cat: '00000000-0000-4000-8000-00000000000c',
  open: '00000000-0000-4000-8000-0000000000f1',
  deleted: '00000000-0000-4000-8000-0000000000f2',
  pending: '00000000-0000-4000-8000-0000000000b1',
  cancelled: '00000000-0000-4000-8000-0000000000b2',
  other: '00000000-0000-4000-8000-0000000000b3',
};

beforeAll(async () => {
  db = await PGlite.create();
  await migration.before(db);
  await db.exec(`
    insert into users (id, email, password_hash, age_confirmed_at) values
      ('${ids.ann}', 'ann@example.com', 'x', now()), ('${ids.bob}', 'bob@example.com', 'x', now()),
      ('${ids.cat}', 'cat@example.com', 'x', now());
    insert into profiles (user_id, full_name) values ('${ids.ann}', 'Ann'), ('${ids.bob}', 'Bob'), ('${ids.cat}', 'Cat');
    insert into delivery_requests (id, user_id, title, description, pickup_location, delivery_location, status) values
      ('${ids.open}', '${ids.ann}', 'Open', 'd', 'p', 'q', 'open'),
      ('${ids.deleted}', '${ids.ann}', 'Gone', 'd', 'p', 'q', 'deleted');
    insert into bookings (id, request_id, driver_id, status, created_at) values
      ('${ids.pending}', '${ids.open}', '${ids.bob}', 'pending', '2026-01-01T10:00:00Z'),
      ('${ids.other}', '${ids.open}', '${ids.cat}', 'pending', '2026-01-01T11:00:00Z'),
      ('${ids.cancelled}', '${ids.deleted}', '${ids.bob}', 'cancelled', '2026-01-02T10:00:00Z');
  `);
  await migration.run(db);
});
afterAll(async () => {
  await db?.close();
});

describe('migration 0005 over existing bookings', () => {
  it("fills requester_id from the request's owner and turns a deleted request's offers into 'declined'", async () => {
    const { rows } = await db.query<{ id: string; requester_id: string; status: string }>(
      'select id, requester_id, status from bookings order by created_at',
    );
    expect(rows).toEqual([
      { id: ids.pending, requester_id: ids.ann, status: 'pending' },
      { id: ids.other, requester_id: ids.ann, status: 'pending' },
      { id: ids.cancelled, requester_id: ids.ann, status: 'declined' },
    ]);
  });

  it("writes each booking's history: 'offered' at its creation, 'request_withdrawn' for the declined one", async () => {
    const { rows } = await db.query<{ booking_id: string; type: string; actor_id: string; offered_at: boolean }>(
      `select e.booking_id, e.type, e.actor_id, e.created_at = b.created_at as offered_at
       from booking_events e join bookings b on b.id = e.booking_id order by b.created_at, e.id`,
    );
    expect(rows).toEqual([
      { booking_id: ids.pending, type: 'offered', actor_id: ids.bob, offered_at: true },
      { booking_id: ids.other, type: 'offered', actor_id: ids.cat, offered_at: true },
      { booking_id: ids.cancelled, type: 'offered', actor_id: ids.bob, offered_at: true },
      { booking_id: ids.cancelled, type: 'request_withdrawn', actor_id: ids.ann, offered_at: false },
    ]);
  });

  it('enforces the new rules on the migrated data: one live offer per driver, one chosen per request', async () => {
    await expect(
      db.exec(
        `insert into bookings (request_id, driver_id, requester_id) values ('${ids.open}', '${ids.bob}', '${ids.ann}')`,
      ),
    ).rejects.toThrow(/bookings_request_driver_live_key/);
    await db.exec(`update bookings set status = 'confirmed', delivery_code = '123456' where id = '${ids.pending}'`);
    await expect(
      db.exec(`update bookings set status = 'confirmed', delivery_code = '654321' where id = '${ids.other}'`),
    ).rejects.toThrow(/bookings_request_chosen_key/);
    await expect(db.exec(`update bookings set status = 'confirmed' where id = '${ids.other}'`)).rejects.toThrow(
      /bookings_delivery_code_while_confirmed/,
    );
  });
});

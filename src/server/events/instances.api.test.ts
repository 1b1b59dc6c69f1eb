import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/messages';
import { createApp } from '../app';
import { openDatabase, type Database } from '../db/client';
import { testListenUrl, testPrepare } from '../test/database';
import { setupTwoInstances } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { dataOf, listening, serveApp, servedInstances, SseClient, type SseEvent } from '../test/sse';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!realPostgres)('live events across two instances on one PostgreSQL', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({
    AUTH_PER_IP_MAX: '100000',
    MESSAGE_LIMIT_PER_USER_MAX: '100000',
  });
  const { story, act } = lifecycleHelpers(a, signUpAndIn);
  const { connect, track } = servedInstances(ctx);

  const sendVia = (caller: typeof a, token: string, bookingId: string, body: string) =>
    caller<Message>('POST', `/bookings/${bookingId}/messages`, {
      cookie: token,
      body: { body, client_id: randomUUID() },
    });

  it('a message sent through instance A reaches a stream connected to instance B', async () => {
    const s = await story(1);
    const driver = s.drivers[0]!;
    const onB = await connect(1, s.requester.token);
    const [ready] = await onB.take(1);
    const sent = await sendVia(a, driver.token, s.offers[0]!.id, 'Sent through A');
    expect(sent.status).toBe(201);
    const [created] = await onB.take(1);
    expect(created).toMatchObject({ event: 'message.created', id: String(Number(ready!.id) + 1) });
    expect(dataOf(created!)).toEqual({ booking_id: s.offers[0]!.id, message: sent.body });
  });

  it('a choose through instance A reaches the streams on instance B (its NOTIFY sent after its commit)', async () => {
    const s = await story(2);
    const [chosen, other] = s.offers;
    const requesterOnB = await connect(1, s.requester.token);
    const declinedOnB = await connect(1, s.drivers[1]!.token);
    await requesterOnB.take(1);
    await declinedOnB.take(1);
    expect((await act(s.requester.token, chosen!.id, 'choose')).status).toBe(200);
    // Live, well before the 25 s heartbeat that would make up for a lost hint.
    const moved = (bookingId: string) => (e: SseEvent) =>
      e.event === 'booking.changed' && dataOf<{ booking_id: string }>(e).booking_id === bookingId;
    const [declined] = (await declinedOnB.takeUntil(moved(other!.id))).slice(-1);
    expect(dataOf(declined!)).toMatchObject({ status: 'declined', event_type: 'other_chosen' });
    const [confirmed] = (await requesterOnB.takeUntil(moved(chosen!.id))).slice(-1);
    expect(dataOf(confirmed!)).toMatchObject({ status: 'confirmed', event_type: 'chosen' });
  });

  it('interleaved concurrent events for one user from both instances arrive gap-free, in order, once', async () => {
    // One requester, three drivers with an offer each: messages from all of them, sent at once through both
    // instances, all land in the requester's one stream.
    const s = await story(3);
    const onA = await connect(0, s.requester.token);
    const onB = await connect(1, s.requester.token);
    const [readyA] = await onA.take(1);
    const [readyB] = await onB.take(1);
    expect(readyA!.id).toBe(readyB!.id);
    const start = Number(readyA!.id);

    const sends = [];
    for (let i = 0; i < 15; i++)
      for (const [k, driver] of s.drivers.entries())
        sends.push(
          sendVia(i % 2 ? a : b, driver.token, s.offers[k]!.id, `d${k}-${i}`),
          sendVia(i % 2 ? b : a, s.requester.token, s.offers[k]!.id, `r${k}-${i}`),
        );
    const results = await Promise.all(sends);
    expect(results.every((r) => r.status === 201)).toBe(true);

    const expected = new Set(results.map((r) => r.body.id));
    for (const stream of [onA, onB]) {
      // Her notifications of the drivers' messages (notification.created, and notification.read when her reply
      // read one) are interleaved: how many depends on the interleaving, so the stream is read to its end.
      let messages = 0;
      const got: SseEvent[] = await stream.takeUntil(
        (e) => e.event === 'message.created' && ++messages === results.length,
        15_000,
      );
      await stream.quiet(300);
      got.push(...(await stream.take(stream.pending().length)));
      expect(got.map((e) => Number(e.id))).toEqual(got.map((_, i) => start + 1 + i));
      const created = got.filter((e) => e.event === 'message.created');
      const messageIds = created.map((e) => dataOf<{ message: Message }>(e).message.id);
      expect(messageIds).toHaveLength(results.length);
      expect(new Set(messageIds)).toEqual(expected);
      expect(got.filter((e) => e.event !== 'message.created').every((e) => e.event.startsWith('notification.'))).toBe(
        true,
      );
    }
    // Both saw the same order: the order of commit.
    expect(onA.events.map((e) => e.data)).toEqual(onB.events.map((e) => e.data));
  });

  it('catches up from user_events after its LISTEN connection was down (notifications lost meanwhile)', async () => {
    // A third instance whose LISTEN connection waits 2 s before reconnecting, so the outage can be observed.
    const url = (ctx.databases[0] as Database & { url: string }).url;
    const database = await openDatabase({
      url,
      dataDir: '',
      prepare: testPrepare(),
      listenUrl: testListenUrl(url),
      listen: { minMs: 2_000, maxMs: 2_000 },
    });
    const app = createApp({ db: database.db, env: ctx.env, notifications: database.notifications });
    const server = await serveApp(app);
    try {
      await until('the third LISTEN connection', () => listening(database));
      // She writes and watches her own stream: one message.created per message, nothing else.
      const s = await story(1);
      const stream = track(await SseClient.open(server.url, { cookie: s.requester.token }));
      const [ready] = await stream.take(1);

      await ctx.databases[0].db.execute(sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'ruralroute-listen'`);
      await until('the third instance to notice', () => !listening(database));
      for (const body of ['while', 'it', 'was', 'down']) await sendVia(a, s.requester.token, s.offers[0]!.id, body);
      // Nothing can reach it yet: the notifications went out while it was not listening.
      expect(stream.pending()).toEqual([]);

      await until('the third instance to listen again', () => listening(database), 10_000);
      const got = await stream.take(4);
      expect(got.map((e) => Number(e.id))).toEqual([1, 2, 3, 4].map((k) => Number(ready!.id) + k));
      expect(got.map((e) => dataOf<{ message: Message }>(e).message.body)).toEqual(['while', 'it', 'was', 'down']);
      // And live again afterwards.
      await sendVia(b, s.requester.token, s.offers[0]!.id, 'back');
      expect((await stream.take(1))[0]).toMatchObject({ id: String(Number(ready!.id) + 5) });
    } finally {
      await app.close();
      await server.close();
      await database.close();
    }
  });

  it('signing out on A ends that session’s stream on B', async () => {
    await until('both LISTEN connections', () => ctx.databases.every(listening));
    const s = await story(1);
    const onB = await connect(1, s.requester.token);
    await onB.take(1);
    expect((await a('POST', '/auth/sign-out', { cookie: s.requester.token })).status).toBe(204);
    await onB.ended;
    expect(onB.closed).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { emailChanges, recoveryCodes } from '../db/schema';
import { turnOnDirectly } from '../test/two-factor';
import type { CallOptions, CallResult } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { rideBody } from '../test/marketplace';
import { completeDelivery } from '../test/reviews';

/**
 * One account with a bit of everything (the export's and the deletion's tests): its rides and requests, bookings
 * in both roles and every state that matters, messages both ways, reviews both ways, a block, a report, a contact
 * message, notification settings, two-factor with a recovery code, a pending e-mail change, two sessions. Every
 * title and text is free of the person's name and address, so a search for those finds only what names them.
 */

type Caller = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<CallResult<T>>;
type Account = { token: string; email: string; user: { id: string } };
type SignUp = (fullName?: string) => Promise<Account>;

/** A fixed TOTP secret (base32), so tests compute the codes. */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

async function ok<T>(res: Promise<CallResult<T>>, status: number, what: string): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function seedAccountStory(
  db: Db,
  call: Caller,
  signUpAndIn: SignUp,
  signIn: (email: string, password: string) => Promise<string>,
  password: string,
  name: string,
) {
  const life = lifecycleHelpers(call, signUpAndIn);
  const me = await signUpAndIn(name);
  const ana = await signUpAndIn('Ana Requester');
  const dan = await signUpAndIn('Dan Offerer');
  const carl = await signUpAndIn('Carl Chosen');
  const rita = await signUpAndIn('Rita Neighbour');
  const bob = await signUpAndIn('Bob Blocked');
  const secondToken = await signIn(me.email, password);

  const ride = await ok(call<{ id: string }>('POST', '/rides', { cookie: me.token, body: rideBody() }), 201, 'ride');
  // My requests: one nobody offered on, one with a pending offer, one with a confirmed driver.
  const lonely = await life.postRequest(me.token, 'Fence posts');
  const offered = await life.postRequest(me.token, 'Seed potatoes');
  const danOffer = await life.offer(dan.token, offered.id);
  const chosen = await life.postRequest(me.token, 'Water tank');
  const carlBooking = await life.offer(carl.token, chosen.id);
  await ok(life.act(me.token, carlBooking.id, 'choose'), 200, 'choose Carl');
  // Ana's requests: I offered on one, and was chosen on the other.
  const anaPending = await life.postRequest(ana.token, 'Hay bales');
  const myOffer = await life.offer(me.token, anaPending.id);
  const anaChosen = await life.postRequest(ana.token, 'Egg crates');
  const myConfirmed = await life.offer(me.token, anaChosen.id);
  await ok(life.act(ana.token, myConfirmed.id, 'choose'), 200, 'choose me');
  // A delivery for Rita, done, with messages both ways and both reviews (published once both are in).
  const done = await completeDelivery(life, { token: rita.token, user: rita.user }, me, 'Apple crates');
  const said = (token: string, body: string) =>
    ok(
      call('POST', `/bookings/${done.bookingId}/messages`, { cookie: token, body: { body, client_id: randomUUID() } }),
      201,
      'message',
    );
  await said(me.token, 'On my way with the crates.');
  await said(rita.token, 'Thank you, the gate is open.');
  await ok(
    call('POST', `/bookings/${done.bookingId}/review`, {
      cookie: me.token,
      body: { rating: 5, comment: 'Crates were ready.' },
    }),
    201,
    'my review',
  );
  await ok(
    call('POST', `/bookings/${done.bookingId}/review`, {
      cookie: rita.token,
      body: { rating: 4, comment: 'Careful driver.' },
    }),
    201,
    'her review',
  );

  await ok(call('POST', '/blocks', { cookie: me.token, body: { user_id: bob.user.id } }), 201, 'block');
  const report = await ok(
    call<{ id: string }>('POST', '/reports', {
      cookie: me.token,
      body: { reported_user_id: bob.user.id, reason: 'spam', details: 'Sends adverts.' },
    }),
    201,
    'report',
  );
  await ok(
    call('POST', '/contact', {
      body: { name, email: me.email, subject: 'A question', message: 'How do ratings work?' },
    }),
    201,
    'contact',
  );
  await ok(
    call('PATCH', '/notifications/settings', { cookie: me.token, body: { email: { message: false } } }),
    200,
    'settings',
  );
  await ok(
    call('POST', '/saved-searches', {
      cookie: me.token,
      body: { name: 'Feed sacks', kind: 'requests', filters: { q: 'feed' } },
    }),
    201,
    'saved search',
  );
  await turnOnDirectly(db, me.user.id, TOTP_SECRET);
  await db.insert(recoveryCodes).values({ userId: me.user.id, codeHash: 'f'.repeat(64) });
  await db.insert(emailChanges).values({
    userId: me.user.id,
    newEmail: `new.${me.email}`,
    tokenHash: 'e'.repeat(64),
    expiresAt: new Date(Date.now() + 86_400_000),
  });

  return {
    me,
    secondToken,
    ana,
    dan,
    carl,
    rita,
    bob,
    ride,
    requests: { lonely, offered, chosen, anaPending, anaChosen },
    bookings: { danOffer, carlBooking, myOffer, myConfirmed, done },
    report,
  };
}

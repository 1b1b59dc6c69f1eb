import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_ANSWER_NOT_KEPT, IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../shared/idempotency';
import { REAUTH_REQUIRED, type RecoveryCodes, type TwoFactorSetup } from '../../shared/two-factor';
import { idempotencyKeys } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { rideBody } from '../test/marketplace';
import { frozenClock } from '../test/two-factor';

/**
 * An answer that holds something shown once (recovery codes, the set-up key, a data export)
 * is never written to the idempotency store, and a repeat of a sensitive request passes the identity check before
 * it is answered from the store.
 */
const time = frozenClock();
afterEach(time.reset);
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' }, { clock: time.clock });

const MINUTE = 60_000;
const NOT_KEPT = { code: 'idempotency_answer_not_kept', message: IDEMPOTENCY_ANSWER_NOT_KEPT };
const REAUTH = { code: 'reauth_required', message: REAUTH_REQUIRED };

const post = <T = unknown>(token: string, path: string, key: string, body: unknown = {}) =>
  call<T>('POST', path, { cookie: token, body, headers: { [IDEMPOTENCY_HEADER]: key } });

/** Everything the store holds for this person, as text: no secret may appear in it. */
async function storedText(userId: string): Promise<string> {
  const rows = await ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
  return JSON.stringify(rows);
}

async function turnOn(token: string) {
  const setup = await post<TwoFactorSetup>(token, '/account/two-factor/setup', randomUUID());
  expect(setup.status).toBe(200);
  const key = randomUUID();
  const code = await time.code(setup.body.secret);
  const first = await post<RecoveryCodes>(token, '/account/two-factor/enable', key, { code });
  expect(first.status).toBe(200);
  return { setup: setup.body, key, code, first };
}

describe('answers shown once are not kept', () => {
  it("'Turn on' sent again with its key answers 409 without the codes; the store never held them", async () => {
    const me = await signUpAndIn('Sam Secret');
    const { setup, key, code, first } = await turnOn(me.token);
    expect(first.body.recovery_codes).toHaveLength(10);

    const again = await post(me.token, '/account/two-factor/enable', key, { code });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(NOT_KEPT);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');

    const stored = await storedText(me.user.id);
    for (const code of first.body.recovery_codes) expect(stored).not.toContain(code);
    expect(stored).not.toContain(setup.secret);
  });

  it("'New recovery codes' and the set-up key: a repeat gets 409, never the secret", async () => {
    const me = await signUpAndIn('Sam Secret');
    await turnOn(me.token);
    const key = randomUUID();
    const codes = await post<RecoveryCodes>(me.token, '/account/two-factor/recovery-codes', key);
    expect(codes.status).toBe(200);
    const again = await post(me.token, '/account/two-factor/recovery-codes', key);
    expect(again).toMatchObject({ status: 409, body: NOT_KEPT });

    const other = await signUpAndIn('Sam Setup');
    const setupKey = randomUUID();
    const setup = await post<TwoFactorSetup>(other.token, '/account/two-factor/setup', setupKey);
    expect(setup.status).toBe(200);
    expect(await post(other.token, '/account/two-factor/setup', setupKey)).toMatchObject({
      status: 409,
      body: NOT_KEPT,
    });

    const stored = (await storedText(me.user.id)) + (await storedText(other.user.id));
    for (const code of codes.body.recovery_codes) expect(stored).not.toContain(code);
    expect(stored).not.toContain(setup.body.secret);
  });
});

describe('a repeat of a sensitive request passes the identity check first', () => {
  it('after the 10 minutes, a repeat of enable answers 403 reauth_required, not the stored answer', async () => {
    const me = await signUpAndIn('Sam Late');
    const { key, code } = await turnOn(me.token);
    time.advance(10 * MINUTE);
    const again = await post(me.token, '/account/two-factor/enable', key, { code });
    expect(again).toMatchObject({ status: 403, body: REAUTH });
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull();
  });

  it('a repeated password change is replayed within the 10 minutes, and refused after them', async () => {
    const me = await signUpAndIn('Sam Password');
    const key = randomUUID();
    const body = {
      current_password: STRONG_PASSWORD,
      new_password: 'Battery-Staple-7',
      confirm_password: 'Battery-Staple-7',
    };
    const first = await post(me.token, '/account/password', key, body);
    expect(first.status).toBe(204);
    const replayed = await post(me.token, '/account/password', key, body);
    expect(replayed.status).toBe(204);
    expect(replayed.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');

    time.advance(10 * MINUTE);
    const late = await post(me.token, '/account/password', key, body);
    expect(late).toMatchObject({ status: 403, body: REAUTH });
  });

  it('a write that is not sensitive is replayed as before, whenever it comes', async () => {
    const me = await signUpAndIn('Sam Ride');
    const key = randomUUID();
    const first = await post<{ id: string }>(me.token, '/rides', key, rideBody());
    expect(first.status).toBe(201);
    time.advance(60 * MINUTE);
    const again = await post<{ id: string }>(me.token, '/rides', key, rideBody());
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });
});

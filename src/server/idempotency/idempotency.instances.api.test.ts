import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../shared/idempotency';
import type { Ride } from '../../shared/marketplace';
import { rides } from '../db/schema';
import { setupTwoInstances } from '../test/harness';
import { rideBody } from '../test/marketplace';

const realPostgres = Boolean(process.env.DATABASE_URL);

/** The key lives in PostgreSQL: a retry that reaches the other instance still finds the first answer. */
describe.skipIf(!realPostgres)('idempotency keys across two instances on one PostgreSQL', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });
  const post = (via: typeof a, token: string, key: string) =>
    via<Ride>('POST', '/rides', { cookie: token, body: rideBody(), headers: { [IDEMPOTENCY_HEADER]: key } });

  it('the same post sent to both instances, 6 times in parallel, makes one ride', async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, k) => post(k % 2 ? b : a, ana.token, key)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect(answers.filter((r) => r.headers.get(IDEMPOTENT_REPLAY_HEADER) === 'true')).toHaveLength(5);
    expect(await ctx.databases[0].db.select().from(rides).where(eq(rides.userId, ana.user.id))).toHaveLength(1);
  });

  it('a retry on B after the answer from A was lost gets A’s answer', async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    const first = await post(a, ana.token, key);
    const retry = await post(b, ana.token, key);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(retry.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
  });
});

import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, moderationActions, users } from '../db/schema';
import { setupTestApp, STRONG_PASSWORD } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';

const realPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Races need real connections: PGlite has a single one, so every request would run one after another and the test
 * would prove nothing. Run with `bash scripts/with-postgres.sh npx vitest run src/server/moderation`.
 */
describe.skipIf(!realPostgres)(
  'blocks and suspensions racing offers on real PostgreSQL (skipped without DATABASE_URL: no race on PGlite)',
  () => {
    const { ctx, call, signUpAndIn, signIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
    const { postRequest } = lifecycleHelpers(call, signUpAndIn);

    it('an offer racing a block between the two never survives as pending', async () => {
      for (let round = 0; round < 6; round++) {
        const owner = await signUpAndIn();
        const driver = await signUpAndIn();
        const requests = await Promise.all([0, 1, 2].map(() => postRequest(owner.token)));
        // The owner blocks while the driver offers on three requests at once; half the rounds the other way round.
        const blocker = round % 2 ? owner : driver;
        const other = round % 2 ? driver : owner;
        const [blocked, ...offers] = await Promise.all([
          call('POST', '/blocks', { cookie: blocker.token, body: { user_id: other.user.id } }),
          ...requests.map((r) => call('POST', '/bookings', { cookie: driver.token, body: { request_id: r.id } })),
        ]);
        expect(blocked?.status).toBe(201);
        for (const o of offers) expect([201, 403]).toContain(o.status);
        const live = await ctx.database.db
          .select({ id: bookings.id })
          .from(bookings)
          .where(
            and(
              inArray(
                bookings.requestId,
                requests.map((r) => r.id),
              ),
              sql`${bookings.status} = 'pending'`,
            ),
          );
        expect(live).toEqual([]);
      }
    });

    it('two admins suspending from two reports about one person at once: one 200, the other 409, one action row', async () => {
      const admins: { token: string }[] = [];
      for (let i = 0; i < 2; i++) {
        const a = await signUpAndIn();
        await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, a.user.id));
        admins.push({ ...a, token: await signIn(a.email, STRONG_PASSWORD) });
      }
      for (let round = 0; round < 4; round++) {
        const target = await signUpAndIn();
        const ids: string[] = [];
        for (let i = 0; i < 2; i++) {
          const reporter = await signUpAndIn();
          const res = await call<{ id: string }>('POST', '/reports', {
            cookie: reporter.token,
            body: { reported_user_id: target.user.id, reason: 'unsafe', details: 'Dangerous.' },
          });
          ids.push(res.body.id);
        }
        const answers = await Promise.all(
          ids.map((id, i) => call('POST', `/admin/reports/${id}/suspend`, { cookie: admins[i]!.token })),
        );
        // The second waits on the first's lock of the person; its own report was actioned with the first.
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        const actions = await ctx.database.db
          .select()
          .from(moderationActions)
          .where(eq(moderationActions.targetUserId, target.user.id));
        expect(actions).toHaveLength(1);
      }
    });
  },
);

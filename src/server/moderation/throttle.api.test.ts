import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blocks, reports } from '../db/schema';
import { setupTestApp } from '../test/harness';

// A small allowance so the throttle is reachable: 3 writes per user per minute, every kind together.
const { ctx, call, signUpAndIn } = setupTestApp({
  WRITE_LIMIT_PER_USER_MAX: '3',
  WRITE_LIMIT_PER_USER_WINDOW_SECONDS: '60',
  AUTH_PER_IP_MAX: '100000',
});

const THROTTLED = { code: 'too_many_requests', message: "You're doing that too often. Please wait a moment." };

describe('reports and blocks share the per-user write throttle', () => {
  it('refuses the 4th write (a report, then a block) with 429 and stores nothing for it', async () => {
    const me = await signUpAndIn();
    const other = await signUpAndIn();
    const report = () =>
      call('POST', '/reports', {
        cookie: me.token,
        body: { reported_user_id: other.user.id, reason: 'other', details: 'Something happened.' },
      });
    for (let i = 0; i < 3; i++) expect((await report()).status).toBe(201);
    const refused = await report();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(THROTTLED);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await ctx.database.db.select().from(reports).where(eq(reports.reporterId, me.user.id))).toHaveLength(3);

    const block = await call('POST', '/blocks', { cookie: me.token, body: { user_id: other.user.id } });
    expect(block).toMatchObject({ status: 429, body: THROTTLED });
    expect(await ctx.database.db.select().from(blocks).where(eq(blocks.blockerId, me.user.id))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { PhoneState } from '../../shared/verification';
import { setupTwoInstances } from '../test/harness';
import { lastCodeTo, newUsNumber, smsFiles } from '../test/phone';

const realPostgres = Boolean(process.env.DATABASE_URL);

/**
 * The SMS limits are PostgreSQL attempt counters, so two instances behind one load balancer share them: a person (or
 * a script) sending to A and B alternately still gets PHONE_SENDS_PER_HOUR codes per hour, per account and per number.
 */
describe.skipIf(!realPostgres)('phone codes across two instances on one PostgreSQL', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ JOBS_POLL_MS: '3600000', AUTH_PER_IP_MAX: '100000' });
  type Call = typeof a;
  const send = (call: Call, token: string, phone: string) =>
    call<PhoneState>('POST', '/account/phone', { cookie: token, body: { phone } });
  const runJobs = () => Promise.all(ctx.apps.map((app) => app.jobs.runDue()));

  it('per account: 3 sends in the hour over both instances, the 4th refused on either', async () => {
    const me = await signUpAndIn('Ines Instances');
    const statuses = [];
    for (const call of [a, b, a]) statuses.push((await send(call, me.token, newUsNumber().typed)).status);
    expect(statuses).toEqual([202, 202, 202]);
    for (const call of [b, a]) {
      const res = await send(call, me.token, newUsNumber().typed);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'too_many_requests' });
    }
  });

  it('per number: sends from two accounts on two instances, all at once, pass 3 times in all', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, (_, i) => signUpAndIn(`Parallel ${i}`)));
    const number = newUsNumber();
    const answers = await Promise.all(accounts.map((account, i) => send(i % 2 ? b : a, account.token, number.typed)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    await runJobs();
    expect((await smsFiles(ctx.env.DATA_DIR)).filter((f) => f.to === number.e164)).toHaveLength(3);
  });

  it('a code sent through A is confirmed through B; the number is then taken on both', async () => {
    const [me, other] = [await signUpAndIn('Cross Confirm'), await signUpAndIn('Cross Other')];
    const number = newUsNumber();
    expect((await send(a, me.token, number.typed)).status).toBe(202);
    await runJobs();
    const code = await lastCodeTo(ctx.env.DATA_DIR, number.e164);
    const res = await b<PhoneState>('POST', '/account/phone/confirm', { cookie: me.token, body: { code } });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe(number.national);
    expect((await send(a, other.token, number.typed)).status).toBe(409);
  });
});

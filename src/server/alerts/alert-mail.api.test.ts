import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/notifications';
import { ALERT_EMAIL_INTERVAL_MINUTES, type SavedSearch } from '../../shared/places';
import { setupTestApp } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { routeHelpers } from '../test/route';
import { startSmtpSink } from '../test/smtp-sink';

const APP = 'https://rural.example';
const MINUTE = 60_000;
const INTERVAL = ALERT_EMAIL_INTERVAL_MINUTES * MINUTE;

/** The app's clock runs `shift` ahead of the wall clock: the throttle's hour passes without waiting. */
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const sink = await startSmtpSink();
afterAll(() => sink.close());

const { ctx, call, signUpAndIn } = setupTestApp(
  {
    SMTP_URL: sink.url,
    MAIL_FROM: 'RuralRoute <hello@rural.example>',
    APP_URL: `${APP}/`,
    JOBS_POLL_MS: '3600000',
    AUTH_PER_IP_MAX: '100000',
  },
  { clock },
);
const { postRequest } = routeHelpers(() => ctx.database.db, call);

const mailsTo = (address: string) => sink.mails.filter((m) => m.to.includes(address));
const matches = async (token: string) =>
  (await call<PageBody<Notification>>('GET', '/notifications', { cookie: token })).body.items.filter(
    (n) => n.type === 'search_match',
  );

/** Ana saves a search for `word`; Ben posts requests with it in the title. */
async function searchFor(word: string, email = true) {
  const ana = await signUpAndIn('Ana Diaz');
  const ben = await signUpAndIn('Ben Okafor');
  const saved = await call<SavedSearch>('POST', '/saved-searches', {
    cookie: ana.token,
    body: { name: word, kind: 'requests', filters: { q: word } },
  });
  if (!email) await call('PATCH', `/saved-searches/${saved.body.id}`, { cookie: ana.token, body: { email: false } });
  const post = () => postRequest(ben.token, null, null, { title: `${word} to go` });
  return { ana, ben, search: saved.body, post };
}

describe('alert e-mails', () => {
  it('wait a minute, then at most one per saved search per hour, the later matches bundled into the next', async () => {
    const { ana, post } = await searchFor('Plums');
    await post();
    expect(await ctx.app.jobs.runDue()).toBe(0); // its mail waits a minute for more matches
    shift = MINUTE + 2_000;
    await ctx.app.jobs.runDue();
    const [first, ...none] = mailsTo(ana.email);
    expect(none).toEqual([]);
    expect(first!.subject).toBe('=?UTF-8?Q?New_matches_for_=E2=80=9CPlums=E2=80=9D?='); // 'New matches for “Plums”'
    expect(first!.text).toContain('A new request matches your search “Plums”.');
    expect(first!.text).toContain(`${APP}/dashboard/browse-requests?q=Plums`);

    // Two more within the hour: one job for both, which waits until the hour since the first mail is over.
    await post();
    await post();
    shift = 4 * MINUTE;
    await ctx.app.jobs.runDue();
    shift = 30 * MINUTE;
    await post();
    await ctx.app.jobs.runDue();
    expect(mailsTo(ana.email)).toHaveLength(1);

    shift = MINUTE + 2_000 + INTERVAL + 1_000;
    await ctx.app.jobs.runDue();
    const mails = mailsTo(ana.email);
    expect(mails).toHaveLength(2);
    // The notification's count: every match since it was last read, the one mailed first included.
    expect(mails[1]!.text).toContain('4 new requests match your search “Plums”.');
    shift = 3 * INTERVAL;
    await ctx.app.jobs.runDue();
    expect(mailsTo(ana.email)).toHaveLength(2); // nothing new matched: no more mail
    expect((await matches(ana.token)).map((n) => n.text)).toEqual(['4 new requests match your search “Plums”.']);
  });

  it("none when the search's Email is off, or it was deleted, or the type is off; the app still shows it", async () => {
    const off = await searchFor('Pears', false);
    await off.post();
    const deleted = await searchFor('Figs');
    await deleted.post();
    await call('DELETE', `/saved-searches/${deleted.search.id}`, { cookie: deleted.ana.token });
    const typeOff = await searchFor('Dates');
    await call('PATCH', '/notifications/settings', {
      cookie: typeOff.ana.token,
      body: { email: { search_match: false } },
    });
    await typeOff.post();
    shift = 2 * MINUTE;
    await ctx.app.jobs.runDue();
    for (const s of [off, deleted, typeOff]) expect(mailsTo(s.ana.email)).toEqual([]);
    expect((await matches(off.ana.token)).map((n) => n.text)).toEqual(['A new request matches your search “Pears”.']);
    expect(await matches(typeOff.ana.token)).toHaveLength(1);
  });

  it('none when the notification was read before its mail went', async () => {
    const { ana, post } = await searchFor('Quinces');
    await post();
    const [notice] = await matches(ana.token);
    expect((await call('POST', `/notifications/${notice!.id}/read`, { cookie: ana.token, body: {} })).status).toBe(200);
    shift = 2 * MINUTE;
    await ctx.app.jobs.runDue();
    expect(mailsTo(ana.email)).toEqual([]);
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_LIMITS } from '../../shared/contact';
import type { Page } from '../../shared/marketplace';
import { SUPPORT_ALREADY_ANSWERED, SUPPORT_MESSAGE_NOT_FOUND, type SupportMessage } from '../../shared/support';
import { contactMessages, jobs, profiles, users } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink';

const APP = 'https://rural.example';
const sink = await startSmtpSink();
afterAll(() => sink.close());

// The worker never runs on its own here (each test runs the due jobs when it wants the mail sent).
const { ctx, call, signUpAndIn, signIn } = setupTestApp({
  SMTP_URL: sink.url,
  MAIL_FROM: 'RuralRoute <hello@rural.example>',
  APP_URL: APP,
  JOBS_POLL_MS: '3600000',
  CONTACT_PER_IP_MAX: '100000',
  AUTH_PER_IP_MAX: '100000',
});
const db = () => ctx.database.db;

type Person = { token: string; user: { id: string }; email: string };
let admin: Person;
let admin2: Person;
let plus: Person;
let community: Person;
let free: Person;

async function makeAdmin(name: string): Promise<Person> {
  const account = await signUpAndIn(name);
  await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  return { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
}

async function member(name: string, plan: 'plus' | 'community' | null): Promise<Person> {
  const account = await signUpAndIn(name);
  if (plan) await db().execute(sql`update profiles set plan = ${plan} where user_id = ${account.user.id}`);
  return account;
}

beforeAll(async () => {
  admin = await makeAdmin('Ina Box');
  admin2 = await makeAdmin('Second Admin');
  plus = await member('Pia Plus', 'plus');
  community = await member('Cody Community', 'community');
  free = await member('Fred Free', null);
});

let n = 0;
/** A message through the contact form, signed in as `who` (a visitor without). */
async function send(who: Person | null, over: Partial<Record<'name' | 'email' | 'subject' | 'message', string>> = {}) {
  n += 1;
  const res = await call<{ id: string }>('POST', '/contact', {
    body: {
      name: 'Ada Hollow',
      email: `ada${n}@example.com`,
      subject: `Question ${n}`,
      message: 'Do drivers carry prescriptions picked up at the counter?',
      ...over,
    },
    ...(who ? { cookie: who.token } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const inbox = (who: Person | null, query = '') =>
  call<Page<SupportMessage>>('GET', `/admin/support${query}`, who ? { cookie: who.token } : {});
const reply = (who: Person | null, id: string, body: unknown, headers?: Record<string, string>) =>
  call<SupportMessage>('POST', `/admin/support/${id}/reply`, { ...(who ? { cookie: who.token } : {}), body, headers });
const errorOf = (res: CallResult<unknown>) => res.body as { code: string; message: string };
const rowOf = async (id: string) => (await db().select().from(contactMessages).where(eq(contactMessages.id, id)))[0]!;
/** The mails to `address`, their text with the SMTP line ends made plain. */
const mailsTo = (address: string): ReceivedMail[] =>
  sink.mails.filter((m) => m.to.includes(address)).map((m) => ({ ...m, text: m.text.replace(/\r\n/g, '\n') }));

/** Every page of a list, `limit` at a time (checks that the cursors end). */
async function allPages(status: 'open' | 'answered', limit: number): Promise<SupportMessage[]> {
  const items: SupportMessage[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 500; i += 1) {
    const q: string = `?status=${status}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await inbox(admin, q);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('the cursors never ended');
}

describe('the contact form remembers who sent it', () => {
  it("stores a signed-in member's account and paid plan with the message; Free members and visitors have none", async () => {
    const cases = [
      [plus, 'plus'],
      [community, 'community'],
      [free, null],
      [null, null],
    ] as const;
    for (const [who, plan] of cases) {
      const id = await send(who);
      expect(await rowOf(id)).toMatchObject({
        userId: who?.user.id ?? null,
        plan,
        reply: null,
        repliedBy: null,
        repliedAt: null,
      });
    }
  });

  it('keeps the plan the member had when they sent it', async () => {
    const upgraded = await member('Una Later', null);
    const before = await send(upgraded);
    await db().update(profiles).set({ plan: 'community' }).where(eq(profiles.userId, upgraded.user.id));
    const after = await send(upgraded);
    expect((await rowOf(before)).plan).toBeNull();
    expect((await rowOf(after)).plan).toBe('community');
  });
});

describe('the support inbox is for admins only', () => {
  it('answers 404 to strangers and to members, on the list and on Reply, and changes nothing', async () => {
    const id = await send(plus);
    const jobsBefore = (await db().select().from(jobs)).length;
    for (const who of [null, free, plus]) {
      const list = await inbox(who);
      expect(list.status).toBe(404);
      expect(errorOf(list).code).toBe('not_found');
      expect((await inbox(who, '?status=answered')).status).toBe(404);
      // Refused before any validation: a bad body or a bad id gets the same 404.
      for (const [target, body] of [
        [id, { reply: 'Yes, they do.' }],
        [id, { reply: '' }],
        ['not-a-uuid', { reply: 'Yes' }],
      ] as const) {
        const res = await reply(who, target, body);
        expect(res.status).toBe(404);
        expect(errorOf(res).code).toBe('not_found');
      }
    }
    expect(await rowOf(id)).toMatchObject({ reply: null, repliedAt: null, repliedBy: null });
    expect((await db().select().from(jobs)).length).toBe(jobsBefore);
  });

  it('is left out of the OpenAPI document', async () => {
    const doc = await call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths).filter((p) => p.includes('support'))).toEqual([]);
  });
});

describe('the inbox order', () => {
  it('lists open messages members with a plan first, then oldest first, each marked with its plan', async () => {
    const visitor = await send(null, { subject: 'Order: visitor' });
    const p = await send(plus, { subject: 'Order: plus' });
    const f = await send(free, { subject: 'Order: free' });
    const c = await send(community, { subject: 'Order: community' });
    const items = await allPages('open', 50);
    const mine = items.filter((i) => [visitor, p, f, c].includes(i.id)).map((i) => [i.subject, i.plan]);
    expect(mine).toEqual([
      ['Order: plus', 'plus'],
      ['Order: community', 'community'],
      ['Order: visitor', null],
      ['Order: free', null],
    ]);
    // The whole list keeps the rule: every member with a plan before everyone else, each part oldest first.
    const planned = items.findIndex((i) => i.plan === null);
    expect(items.slice(planned).every((i) => i.plan === null)).toBe(true);
    for (const part of [items.slice(0, planned), items.slice(planned)])
      for (let i = 1; i < part.length; i += 1)
        expect(Date.parse(part[i]!.created_at)).toBeGreaterThanOrEqual(Date.parse(part[i - 1]!.created_at));
    const item = items.find((i) => i.id === p)!;
    expect(item).toEqual({
      id: p,
      name: 'Ada Hollow',
      email: expect.stringMatching(/@example\.com$/),
      subject: 'Order: plus',
      message: 'Do drivers carry prescriptions picked up at the counter?',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      user_id: plus.user.id,
      plan: 'plus',
      reply: null,
      replied_by: null,
      replied_at: null,
    });
  });

  it('pages through every open message exactly once, in the same order, however small the pages', async () => {
    // Rows written within one millisecond (created_at keeps microseconds): the cursor must tell them apart.
    const base = { name: 'Tie', email: 'tie@example.com', message: 'Same millisecond' };
    await db()
      .insert(contactMessages)
      .values([
        { ...base, subject: 'Tie 1', createdAt: sql`'2001-02-03T04:05:06.789001Z'::timestamptz` },
        { ...base, subject: 'Tie 2', createdAt: sql`'2001-02-03T04:05:06.789002Z'::timestamptz` },
        { ...base, subject: 'Tie 3', plan: 'plus', createdAt: sql`'2001-02-03T04:05:06.789003Z'::timestamptz` },
        { ...base, subject: 'Tie 4', plan: 'plus', createdAt: sql`'2001-02-03T04:05:06.789004Z'::timestamptz` },
      ]);
    const whole = await allPages('open', 50);
    for (const limit of [1, 2, 3])
      expect((await allPages('open', limit)).map((i) => i.id)).toEqual(whole.map((i) => i.id));
    expect(new Set(whole.map((i) => i.id)).size).toBe(whole.length);
    const ties = whole.filter((i) => i.subject.startsWith('Tie ')).map((i) => i.subject);
    expect(ties).toEqual(['Tie 3', 'Tie 4', 'Tie 1', 'Tie 2']);
  });

  it('refuses a bad status, limit or cursor with a clear 400', async () => {
    for (const [query, message] of [
      ['?status=closed', "Status must be 'open' or 'answered'"],
      ['?cursor=nonsense', undefined],
      ['?limit=0', undefined],
      ['?limit=51', undefined],
    ] as const) {
      const res = await inbox(admin, query);
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe('validation_error');
      if (message) expect(errorOf(res).message).toBe(message);
    }
    // A cursor of the other list (or of another list of the app) is not one of this list's.
    const answeredCursor = Buffer.from(JSON.stringify(['2001-02-03T04:05:06.789001Z', crypto.randomUUID()])).toString(
      'base64url',
    );
    expect((await inbox(admin, `?cursor=${answeredCursor}`)).status).toBe(400);
  });
});

describe('Reply', () => {
  it("mails the answer with the message quoted, marks it 'Answered' and moves it to the answered list", async () => {
    const email = `reply.${Date.now()}@example.com`;
    const id = await send(plus, {
      email,
      name: 'Pia Plus',
      subject: 'Stops on my ride',
      message: 'Can I add a stop?\nIt is on the way.',
    });
    const res = await reply(admin, id, { reply: '  Yes: up to three stops with Plus.\n\nSee Settings > Plan.  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      plan: 'plus',
      reply: 'Yes: up to three stops with Plus.\n\nSee Settings > Plan.',
      replied_by: { id: admin.user.id, full_name: 'Ina Box' },
      replied_at: expect.stringMatching(/Z$/),
    });
    expect(await rowOf(id)).toMatchObject({ repliedBy: admin.user.id, reply: res.body.reply });

    expect(mailsTo(email)).toEqual([]);
    await ctx.app.jobs.runDue();
    const [mail, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(mail!.to).toEqual([email]);
    expect(mail!.subject).toBe('Re: Stops on my ride');
    expect(mail!.messageId).toBe(`<rr-support-reply-${id}@rural.example>`);
    expect(mail!.text).toContain('Hello Pia Plus,');
    expect(mail!.text).toContain('Yes: up to three stops with Plus.\n\nSee Settings > Plan.');
    expect(mail!.text).toContain('> Stops on my ride\n>\n> Can I add a stop?\n> It is on the way.');
    expect(mail!.text).toContain(`${APP}/contact`);
    expect(mail!.html).toContain('See Settings &gt; Plan.');
    expect(mail!.html).toContain('<blockquote');
    expect(mail!.headers['list-unsubscribe']).toBeUndefined();
    // Answering the mail reaches support (SUPPORT_EMAIL), not the no-reply From address.
    expect(mail!.headers['reply-to']).toBe(ctx.env.SUPPORT_EMAIL);
    expect(mail!.text).toContain('reply to this e-mail');

    expect((await allPages('open', 50)).map((i) => i.id)).not.toContain(id);
    const answered = await allPages('answered', 50);
    expect(answered.find((i) => i.id === id)).toMatchObject({
      reply: res.body.reply,
      replied_by: { id: admin.user.id },
    });
  });

  it('escapes what people typed in the HTML part', async () => {
    const email = `html.${Date.now()}@example.com`;
    const id = await send(null, { email, name: '<b>Eve</b>', subject: 'a <script>', message: '<img src=x>' });
    expect((await reply(admin, id, { reply: '<a href="x">no</a>' })).status).toBe(200);
    await ctx.app.jobs.runDue();
    const [mail] = mailsTo(email);
    expect(mail!.html).not.toMatch(/<script>|<img src=x>|<a href="x">|<b>Eve/);
    expect(mail!.html).toContain('&lt;img src=x&gt;');
  });

  it('answers a message once: a second Reply is 409 and nothing is mailed twice', async () => {
    const email = `twice.${Date.now()}@example.com`;
    const id = await send(community, { email });
    expect((await reply(admin, id, { reply: 'First answer' })).status).toBe(200);
    for (const who of [admin, admin2]) {
      const again = await reply(who, id, { reply: 'Second answer' });
      expect(again.status).toBe(409);
      expect(errorOf(again)).toEqual({ code: 'already_replied', message: SUPPORT_ALREADY_ANSWERED });
    }
    expect(await rowOf(id)).toMatchObject({ reply: 'First answer', repliedBy: admin.user.id });
    await ctx.app.jobs.runDue();
    expect(mailsTo(email).map((m) => m.text.includes('First answer'))).toEqual([true]);
  });

  it('two admins answering at once: one answer wins, the other gets 409, one mail', async () => {
    const email = `race.${Date.now()}@example.com`;
    const id = await send(plus, { email });
    const answers = await Promise.all([
      reply(admin, id, { reply: 'From the first admin' }),
      reply(admin2, id, { reply: 'From the second admin' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body;
    expect((await rowOf(id)).reply).toBe(winner.reply);
    await ctx.app.jobs.runDue();
    expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(email)[0]!.text).toContain(winner.reply!);
  });

  it('a repeat with the same Idempotency-Key gets the first answer, not a 409, and one mail', async () => {
    const email = `idem.${Date.now()}@example.com`;
    const id = await send(null, { email });
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await reply(admin, id, { reply: 'Once' }, headers);
    const repeat = await reply(admin, id, { reply: 'Once' }, headers);
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    await ctx.app.jobs.runDue();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it.each([
    ['an empty answer', { reply: '' }, 'Your answer is required'],
    ['only white space', { reply: ' \n\t ' }, 'Your answer is required'],
    ['no answer', {}, 'Your answer is required'],
    ['a number', { reply: 42 }, 'Your answer is required'],
    [
      'one character too many',
      { reply: 'x'.repeat(CONTACT_LIMITS.messageMax + 1) },
      'Your answer must be less than 5000 characters',
    ],
    ['a NUL character', { reply: 'null\u0000char' }, 'Text must not contain null characters'],
    ['a list for a body', ['a list'], 'Please check your input'],
  ])('refuses %s with 400; the message stays open and nothing is queued', async (_, body, message) => {
    const id = await send(plus);
    const jobsBefore = (await db().select().from(jobs)).length;
    const res = await reply(admin, id, body);
    expect(res.status).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'validation_error', message });
    expect(await rowOf(id)).toMatchObject({ reply: null, repliedAt: null, repliedBy: null });
    expect((await db().select().from(jobs)).length).toBe(jobsBefore);
  });

  it('accepts an answer of exactly the longest length', async () => {
    const id = await send(null);
    expect((await reply(admin, id, { reply: 'y'.repeat(CONTACT_LIMITS.messageMax) })).status).toBe(200);
  });

  it('answers malformed JSON with 400 and an unknown or malformed id with 404', async () => {
    const id = await send(null);
    const malformed = await call('POST', `/admin/support/${id}/reply`, { cookie: admin.token, raw: '{"reply":' });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).code).toBe('malformed_json');
    for (const target of [crypto.randomUUID(), 'not-a-uuid']) {
      const res = await reply(admin, target, { reply: 'Hello' });
      expect(res.status).toBe(404);
      expect(errorOf(res)).toEqual({ code: 'not_found', message: SUPPORT_MESSAGE_NOT_FOUND });
    }
    expect((await rowOf(id)).reply).toBeNull();
  });
});

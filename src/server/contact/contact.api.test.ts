import { describe, expect, it } from 'vitest';
import { CONTACT_LIMITS } from '../../shared/contact';
import { attemptCounters, contactMessages } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { createContactService } from './service';

// A low allowance so the limit is reachable; each test uses its own address so they do not share it.
const { ctx, call } = setupTestApp({ CONTACT_PER_IP_MAX: '3', CONTACT_PER_IP_WINDOW_MINUTES: '60' });

const valid = {
  name: 'Ada Hollow',
  email: 'ada@example.com',
  subject: 'Pharmacy runs',
  message: 'Do drivers carry prescriptions picked up at the counter?',
};

async function allMessages() {
  return ctx.database.db.select().from(contactMessages);
}

describe('POST /api/contact', () => {
  it('stores the message trimmed and answers 201 with its id', async () => {
    const res = await call<{ id: string; created_at: string }>('POST', '/contact', {
      body: { ...valid, name: '  Ada Hollow ', subject: ' Pharmacy runs\n' },
      ip: '10.0.0.1',
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false);
    const stored = (await allMessages()).find((m) => m.id === res.body.id);
    expect(stored).toMatchObject({
      name: 'Ada Hollow',
      email: 'ada@example.com',
      subject: 'Pharmacy runs',
      message: valid.message,
    });
    const latest = await createContactService(ctx.database.db, {
      clock: () => new Date(),
      appUrl: ctx.env.APP_URL,
      supportEmail: ctx.env.SUPPORT_EMAIL,
    }).latest(1);
    expect(latest[0]?.id).toBe(res.body.id);
  });

  it.each([
    [{ name: '   ' }, 'Name is required'],
    [{ name: 'x'.repeat(CONTACT_LIMITS.nameMax + 1) }, 'Name must be less than 100 characters'],
    [{ email: 'not-an-email' }, 'Invalid email address'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'Email must be less than 255 characters'],
    [{ subject: '' }, 'Subject is required'],
    [{ subject: 's'.repeat(CONTACT_LIMITS.subjectMax + 1) }, 'Subject must be less than 200 characters'],
    [{ message: '\n\n' }, 'Message is required'],
    [{ message: 'm'.repeat(CONTACT_LIMITS.messageMax + 1) }, 'Message must be less than 5000 characters'],
    [{ name: 42 }, 'Name is required'],
    [{ message: 'feed\u0000store' }, 'Text must not contain null characters'],
    [{ subject: '\u0000' }, 'Text must not contain null characters'],
    [{ message: undefined }, 'Message is required'],
  ])('refuses %j with "%s" and stores nothing', async (patch, message) => {
    const before = (await allMessages()).length;
    const res = await call('POST', '/contact', { body: { ...valid, ...patch }, ip: '10.0.0.2' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message });
    expect((await allMessages()).length).toBe(before);
  });

  it('reports the first field to fix when several are wrong', async () => {
    const res = await call('POST', '/contact', { body: { name: '', email: 'x', subject: '', message: '' } });
    expect(res.body).toEqual({ code: 'validation_error', message: 'Name is required' });
  });

  it('answers malformed JSON, a missing body and an oversized body with a clear 4xx, never a 500', async () => {
    const malformed = await call('POST', '/contact', { raw: '{"name":', ip: '10.0.0.3' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json' });
    const none = await call('POST', '/contact', { ip: '10.0.0.3' });
    expect(none.status).toBeGreaterThanOrEqual(400);
    expect(none.status).toBeLessThan(500);
    const huge = await call('POST', '/contact', {
      body: { ...valid, message: 'x'.repeat(70 * 1024) },
      ip: '10.0.0.3',
    });
    expect(huge.status).toBe(413);
  });

  it('refuses a post from a foreign origin (CSRF) and stores nothing', async () => {
    const before = (await allMessages()).length;
    const res = await call('POST', '/contact', { body: valid, origin: 'https://evil.example', ip: '10.0.0.4' });
    expect(res.status).toBe(403);
    expect((await allMessages()).length).toBe(before);
  });

  it('limits messages per address with 429 and Retry-After, without touching other addresses', async () => {
    for (let i = 0; i < 3; i += 1) {
      const ok = await call('POST', '/contact', { body: { ...valid, subject: `Try ${i}` }, ip: '10.0.0.5' });
      expect(ok.status).toBe(201);
    }
    const before = (await allMessages()).length;
    const limited = await call('POST', '/contact', { body: valid, ip: '10.0.0.5' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'too_many_requests' });
    expect((limited.body as { message: string }).message).toMatch(/Please wait 60 minutes and try again\./);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await allMessages()).length).toBe(before);

    const elsewhere = await call('POST', '/contact', { body: valid, ip: '10.0.0.6' });
    expect(elsewhere.status).toBe(201);
  });

  it('stores exactly the allowance of 20 parallel posts from one address; the rest get 429', async () => {
    const subject = `Parallel ${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/contact', { body: { ...valid, subject }, ip: '10.0.0.9' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'too_many_requests' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await allMessages()).filter((m) => m.subject === subject)).toHaveLength(3);
    // The privacy policy promises no address is kept: the counter holds a hash of it only.
    const counters = await ctx.database.db.select().from(attemptCounters);
    expect(counters.some((row) => row.key.startsWith('contact-ip:'))).toBe(true);
    expect(JSON.stringify(counters)).not.toContain('10.0.0.9');
  });

  it('does not count refused input against the allowance', async () => {
    for (let i = 0; i < 5; i += 1) {
      const bad = await call('POST', '/contact', { body: { ...valid, email: 'nope' }, ip: '10.0.0.7' });
      expect(bad.status).toBe(400);
    }
    const ok = await call('POST', '/contact', { body: valid, ip: '10.0.0.7' });
    expect(ok.status).toBe(201);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).toContain('/contact');
  });
});

describe('contact_messages constraints', () => {
  it('rejects rows the schema would refuse even from another writer', async () => {
    await expect(ctx.database.db.insert(contactMessages).values({ ...valid, name: '' })).rejects.toThrow();
    await expect(
      ctx.database.db.insert(contactMessages).values({ ...valid, message: 'm'.repeat(CONTACT_LIMITS.messageMax + 1) }),
    ).rejects.toThrow();
  });
});

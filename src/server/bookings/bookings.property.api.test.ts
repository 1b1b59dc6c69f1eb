import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows, requestBody } from '../test/marketplace';
import { anyText, notAString } from '../test/properties';

const { ctx, call, signUpAndIn } = setupTestApp();
let token = '';
let openId = '';

beforeAll(async () => {
  token = (await signUpAndIn()).token;
  const owner = await signUpAndIn();
  const res = await call<{ id: string }>('POST', '/requests', { cookie: owner.token, body: requestBody() });
  openId = res.body.id;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

describe('POST /bookings under random input', () => {
  it("answers 400 'Invalid request ID' for any request_id that is not a uuid, whatever else the body holds", async () => {
    const requestId = fc.oneof(
      anyText({ maxLength: 80 }).filter((v) => !UUID.test(v)),
      notAString,
      fc.constant(null),
      fc.uuid().map((u) => `${u} `),
    );
    const extra = fc.record(
      { driver_id: fc.uuid(), status: fc.constantFrom('completed', 'confirmed', 'x'), request: fc.jsonValue() },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(requestId, extra, async (id, rest) => {
        const before = await countRows(ctx.database.db, bookings);
        const res = await call('POST', '/bookings', { cookie: token, body: { ...rest, request_id: id } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message: 'Invalid request ID' });
        expect(await countRows(ctx.database.db, bookings)).toBe(before);
      }),
      { numRuns: 80 },
    );
  });

  it("answers 400 'Invalid booking data' for a body that is not an object", async () => {
    const body = fc.oneof(
      notAString.filter((v) => Array.isArray(v) || typeof v !== 'object'),
      anyText(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const res = await call('POST', '/bookings', { cookie: token, body: value });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message: 'Invalid booking data' });
      }),
      { numRuns: 40 },
    );
  });

  it('answers 409 request_unavailable for any well-formed id of no request, and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uuid().filter((u) => u !== openId && UUID.test(u)),
        async (id) => {
          const before = await countRows(ctx.database.db, bookings);
          const res = await call('POST', '/bookings', { cookie: token, body: { request_id: id } });
          expect(res.status).toBe(409);
          expect(res.body).toEqual({ code: 'request_unavailable', message: 'This request is no longer available.' });
          expect(await countRows(ctx.database.db, bookings)).toBe(before);
        },
      ),
      { numRuns: 40 },
    );
  });
});

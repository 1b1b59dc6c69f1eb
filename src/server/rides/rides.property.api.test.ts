import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { earliestToday } from '../../shared/dates';
import { INPUT_FALLBACK_MESSAGE, NUL_MESSAGE, rideInputSchema } from '../../shared/marketplace';
import { rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows, rideBody } from '../test/marketplace';
import { anyText, badDate, badOptionalText, badRequiredText, notAString } from '../test/properties';

const { ctx, call, signUpAndIn } = setupTestApp();
let token = '';
let othersRideIds: string[] = [];

beforeAll(async () => {
  token = (await signUpAndIn()).token;
  const other = await signUpAndIn();
  for (let i = 0; i < 3; i++) {
    const res = await call<{ id: string }>('POST', '/rides', { cookie: other.token, body: rideBody() });
    othersRideIds.push(res.body.id);
  }
  othersRideIds = [...othersRideIds];
});

const RUNS = { numRuns: 60 };

const badField = () =>
  fc.oneof(
    badRequiredText(500, 'Origin is required', 'Origin must be less than 500 characters', NUL_MESSAGE).map(
      ([v, m]) => [{ origin: v }, m] as const,
    ),
    badRequiredText(500, 'Destination is required', 'Destination must be less than 500 characters', NUL_MESSAGE).map(
      ([v, m]) => [{ destination: v }, m] as const,
    ),
    badDate(earliestToday(), 'Departure date is required', 'Departure date cannot be in the past').map(
      ([v, m]) => [{ departure_date: v }, m] as const,
    ),
    fc
      .oneof(anyText({ maxLength: 10 }), notAString)
      .filter((v) => typeof v !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$|^$/.test(v.trim()))
      .map((v) => [{ departure_time: v }, 'Please enter a valid time'] as const),
    badOptionalText(200, 'Available space must be less than 200 characters', NUL_MESSAGE).map(
      ([v, m]) => [{ available_space: v }, m] as const,
    ),
    badOptionalText(1000, 'Notes must be less than 1000 characters', NUL_MESSAGE).map(
      ([v, m]) => [{ notes: v }, m] as const,
    ),
  );

describe('POST /rides under random input', () => {
  it('answers 400 with the message of the one bad field and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(badField(), async ([patch, message]) => {
        const before = await countRows(ctx.database.db, rides);
        const res = await call('POST', '/rides', { cookie: token, body: rideBody(patch) });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message });
        expect(await countRows(ctx.database.db, rides)).toBe(before);
      }),
      RUNS,
    );
  });

  it('never fails with a 500 on arbitrary bodies: 201 exactly when the shared schema accepts, else its message', async () => {
    const field = fc.oneof(anyText({ maxLength: 600 }), notAString, fc.constant(null), fc.constant(''));
    const body = fc.oneof(
      fc.record(
        {
          origin: field,
          destination: field,
          departure_date: fc.oneof(field, fc.constantFrom(earliestToday(), '2099-01-01')),
          departure_time: fc.oneof(field, fc.constantFrom('09:15', '23:59:59')),
          available_space: field,
          notes: field,
          user_id: fc.uuid(),
          status: anyText({ maxLength: 10 }),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const schema = rideInputSchema();
    await fc.assert(
      fc.asyncProperty(body, async (input) => {
        const before = await countRows(ctx.database.db, rides);
        const res = await call<{ message?: string }>('POST', '/rides', { cookie: token, body: input });
        const expected = schema.safeParse(input);
        if (expected.success) {
          expect(res.status).toBe(201);
          // Place ids come back as points; these bodies choose none (random ids are refused, see browse.api.test).
          const { origin_place_id, destination_place_id, ...fields } = expected.data;
          expect(res.body).toMatchObject({ ...fields, status: 'active', is_own: true });
          expect([origin_place_id, destination_place_id]).toEqual([null, null]);
          expect(await countRows(ctx.database.db, rides)).toBe(before + 1);
        } else {
          expect(res.status).toBe(400);
          const first = expected.error.issues[0];
          const message =
            first?.path.length === 0 && first.code === 'invalid_type' ? INPUT_FALLBACK_MESSAGE : first?.message;
          expect(res.body).toEqual({ code: 'validation_error', message });
          expect(await countRows(ctx.database.db, rides)).toBe(before);
        }
      }),
      RUNS,
    );
  });
});

describe('DELETE /rides/:id under random ids', () => {
  it("answers 404 and deletes nothing for any id that is not one of my rides (other users' included)", async () => {
    const id = fc.oneof(anyText({ maxLength: 60 }), fc.uuid(), fc.constantFrom(...othersRideIds));
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        const before = await countRows(ctx.database.db, rides);
        const res = await call<{ code: string }>('DELETE', `/rides/${encodeURIComponent(value)}`, { cookie: token });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
        expect(await countRows(ctx.database.db, rides)).toBe(before);
      }),
      RUNS,
    );
  });
});

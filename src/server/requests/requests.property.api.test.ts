import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { earliestToday } from '../../shared/dates';
import { INPUT_FALLBACK_MESSAGE, NUL_MESSAGE, requestInputSchema } from '../../shared/marketplace';
import { deliveryRequests } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows, requestBody } from '../test/marketplace';
import { anyText, badDate, badRequiredText, notAString } from '../test/properties';

const { ctx, call, signUpAndIn } = setupTestApp();
let token = '';
const othersIds: string[] = [];

beforeAll(async () => {
  token = (await signUpAndIn()).token;
  const other = await signUpAndIn();
  for (let i = 0; i < 3; i++) {
    const res = await call<{ id: string }>('POST', '/requests', { cookie: other.token, body: requestBody() });
    othersIds.push(res.body.id);
  }
});

const RUNS = { numRuns: 60 };
const MONEY_FORMAT = 'Compensation must be an amount like 12.50, with at most 2 decimal places';
const MONEY_RANGE = 'Compensation must be between 0 and 10,000';

/** Independent oracle for compensation text: '' is "none", otherwise digits with up to 2 decimals, 0..10000. */
function judgeMoney(v: string): string | null {
  const t = v.trim().replace(/^\$/, '');
  if (t === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return MONEY_FORMAT;
  return Number(t) > 10_000 ? MONEY_RANGE : null;
}

const badCompensation = fc.oneof(
  fc
    .oneof(
      anyText({ maxLength: 12 }),
      fc.double({ min: -1e9, max: 1e9, noNaN: true }).map(String),
      fc.integer({ min: 10_001, max: 1e9 }).map(String),
      fc.stringMatching(/^\d{6,30}(\.\d\d?)?$/),
      fc
        .tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 9999 }))
        .map(([w, f]) => `${w}.${String(f).padStart(3, '0')}`),
    )
    .map((v) => [v, judgeMoney(v)] as const)
    .filter((p): p is readonly [string, string] => p[1] !== null),
  fc.integer({ min: 10_001, max: 1e9 }).map((v) => [v, MONEY_RANGE] as const),
  fc.integer({ min: -1e9, max: -1 }).map((v) => [v, MONEY_FORMAT] as const),
  fc
    .oneof(fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }))
    .map((v) => [v, 'Compensation must be an amount like 12.50'] as const),
);

const badField = () =>
  fc.oneof(
    badRequiredText(200, 'Title is required', 'Title must be less than 200 characters', NUL_MESSAGE).map(
      ([v, m]) => [{ title: v }, m] as const,
    ),
    badRequiredText(2000, 'Description is required', 'Description must be less than 2000 characters', NUL_MESSAGE).map(
      ([v, m]) => [{ description: v }, m] as const,
    ),
    badRequiredText(
      500,
      'Pickup location is required',
      'Pickup location must be less than 500 characters',
      NUL_MESSAGE,
    ).map(([v, m]) => [{ pickup_location: v }, m] as const),
    badRequiredText(
      500,
      'Delivery location is required',
      'Delivery location must be less than 500 characters',
      NUL_MESSAGE,
    ).map(([v, m]) => [{ delivery_location: v }, m] as const),
    badDate(earliestToday(), 'Needed-by date is required', 'Needed-by date cannot be in the past', true).map(
      ([v, m]) => [{ needed_by_date: v }, m] as const,
    ),
    badCompensation.map(([v, m]) => [{ compensation: v }, m] as const),
  );

describe('POST /requests under random input', () => {
  it('answers 400 with the message of the one bad field and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(badField(), async ([patch, message]) => {
        const before = await countRows(ctx.database.db, deliveryRequests);
        const res = await call('POST', '/requests', { cookie: token, body: requestBody(patch) });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message });
        expect(await countRows(ctx.database.db, deliveryRequests)).toBe(before);
      }),
      RUNS,
    );
  });

  it('stores any valid amount exactly, as cents, and answers it with 2 decimals', async () => {
    const cents = fc.integer({ min: 0, max: 1_000_000 });
    await fc.assert(
      fc.asyncProperty(cents, fc.boolean(), async (c, asNumber) => {
        const text = `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
        const res = await call<{ compensation: string }>('POST', '/requests', {
          cookie: token,
          body: requestBody({ compensation: asNumber ? Number(text) : text }),
        });
        expect(res.status).toBe(201);
        expect(res.body.compensation).toBe(text);
      }),
      { numRuns: 40 },
    );
  });

  it('never fails with a 500 on arbitrary bodies: 201 exactly when the shared schema accepts, else its message', async () => {
    const field = fc.oneof(anyText({ maxLength: 300 }), notAString, fc.constant(null), fc.constant(''));
    const body = fc.oneof(
      fc.record(
        {
          title: field,
          description: field,
          pickup_location: field,
          delivery_location: field,
          needed_by_date: fc.oneof(field, fc.constantFrom(earliestToday(), '2099-01-01')),
          compensation: fc.oneof(field, fc.constantFrom('0', '12.5', '10000', 7)),
          user_id: fc.uuid(),
          status: anyText({ maxLength: 10 }),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const schema = requestInputSchema();
    await fc.assert(
      fc.asyncProperty(body, async (input) => {
        const before = await countRows(ctx.database.db, deliveryRequests);
        const res = await call('POST', '/requests', { cookie: token, body: input });
        const expected = schema.safeParse(input);
        if (expected.success) {
          expect(res.status).toBe(201);
          expect(await countRows(ctx.database.db, deliveryRequests)).toBe(before + 1);
        } else {
          expect(res.status).toBe(400);
          const first = expected.error.issues[0];
          const message =
            first?.path.length === 0 && first.code === 'invalid_type' ? INPUT_FALLBACK_MESSAGE : first?.message;
          expect(res.body).toEqual({ code: 'validation_error', message });
          expect(await countRows(ctx.database.db, deliveryRequests)).toBe(before);
        }
      }),
      RUNS,
    );
  });
});

describe('DELETE /requests/:id under random ids', () => {
  it("answers 404 and changes nothing for any id that is not one of my requests (other users' included)", async () => {
    const id = fc.oneof(anyText({ maxLength: 60 }), fc.uuid(), fc.constantFrom(...othersIds));
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        const before = await ctx.database.db.select().from(deliveryRequests);
        const res = await call<{ code: string }>('DELETE', `/requests/${encodeURIComponent(value)}`, {
          cookie: token,
        });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
        expect(await ctx.database.db.select().from(deliveryRequests)).toEqual(before);
      }),
      { numRuns: 40 },
    );
  });
});

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { REPORT_REASONS } from '../../shared/moderation';
import { NUL_MESSAGE } from '../../shared/text';
import { reports } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows } from '../test/marketplace';
import { badRequiredText, notAString } from '../test/properties';

const { ctx, call, signUpAndIn } = setupTestApp();
let token = '';
let otherId = '';

beforeAll(async () => {
  token = (await signUpAndIn()).token;
  otherId = (await signUpAndIn()).user.id;
});

const RUNS = { numRuns: 60 };
const ABSENT = Symbol('absent');
type Field = readonly [value: unknown, error: string | null];

// Each field: a value and the message it must draw, or null when it is fine. The first failing field in the
// schema's order decides the answer, as in the form.
const reportedId = fc.oneof(
  // Built lazily: the other person's id exists once beforeAll has run.
  fc.constant(null).map(() => [otherId, null] as Field),
  fc.oneof(fc.string({ maxLength: 40 }), notAString, fc.constant(ABSENT)).map((v) => [v, 'Not found'] as Field),
);
const bookingId = fc.oneof(
  fc.constantFrom<Field>([ABSENT, null], [null, null]),
  fc
    .string({ maxLength: 40 })
    .filter((v) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(v))
    .map((v) => [v, 'Not found'] as Field),
);
const reason = fc.oneof(
  fc.constantFrom(...Object.keys(REPORT_REASONS)).map((v) => [v, null] as Field),
  fc
    .oneof(fc.string({ maxLength: 20 }), notAString, fc.constant(ABSENT))
    .filter((v) => typeof v !== 'string' || !(v in REPORT_REASONS))
    .map((v) => [v, 'Please choose a reason'] as Field),
);
const details = fc.oneof(
  fc
    .string({ minLength: 1, maxLength: 60 })
    .filter((v) => v.trim().length > 0)
    .map((v) => [v, null] as Field),
  badRequiredText(1000, 'Details are required', 'Details must be less than 1000 characters', NUL_MESSAGE).map(
    ([v, m]) => [v, m] as Field,
  ),
);

describe('POST /api/reports with generated input', () => {
  it('answers 201 exactly when every field is valid, else 400 with the first failing field’s message', async () => {
    await fc.assert(
      fc.asyncProperty(reportedId, bookingId, reason, details, async (...fields) => {
        const names = ['reported_user_id', 'booking_id', 'reason', 'details'];
        const body = Object.fromEntries(fields.flatMap(([v], i) => (v === ABSENT ? [] : [[names[i]!, v]]))) as Record<
          string,
          unknown
        >;
        const expected = fields.find(([, error]) => error !== null)?.[1] ?? null;
        const before = await countRows(ctx.database.db, reports);
        const res = await call('POST', '/reports', { cookie: token, body });
        if (expected === null) {
          expect(res.status).toBe(201);
          expect(await countRows(ctx.database.db, reports)).toBe(before + 1);
        } else {
          expect(res).toMatchObject({ status: 400, body: { code: 'validation_error', message: expected } });
          expect(await countRows(ctx.database.db, reports)).toBe(before);
        }
      }),
      RUNS,
    );
  });

  it('answers a body that is not an object with the fallback message, never a 500', async () => {
    const notAnObject = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.string(),
      fc.constant(null),
      fc.array(fc.anything(), { maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(notAnObject, async (body) => {
        const res = await call('POST', '/reports', { cookie: token, body });
        expect(res).toMatchObject({ status: 400, body: { code: 'validation_error', message: INPUT_FALLBACK_MESSAGE } });
      }),
      RUNS,
    );
  });
});

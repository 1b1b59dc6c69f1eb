import fc from 'fast-check';

/**
 * Generators for forged pagination cursors: what an attacker or a corrupted bookmark can send back as `cursor`.
 * Most are refused; some happen to be well-formed cursors, which must then work.
 */

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The parts a real cursor is made of, anywhere in the range the server accepts (years 1000-9999). */
const RANGE = { min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z') };
export const validInstant = fc.date({ ...RANGE, noInvalidDate: true }).map((d) => d.toISOString());
export const validDate = validInstant.map((s) => s.slice(0, 10));
export const validTime = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m, s]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`),
  fc.constant('24:00:00'),
);
export const validUuid = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
);

/** Shaped like a part but with any numbers in it: month 13, day 0, hour 25, year 0 or 294277 (past PostgreSQL). */
const dateish = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 10_000, max: 6_000_000 })),
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 0, max: 99 }),
  )
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
const timeish = fc
  .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
  .map(([h, m, s]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`);
const instantish = fc
  .tuple(
    fc.oneof(dateish, validDate),
    fc.oneof(timeish, validTime),
    fc.integer({ min: 0, max: 9999 }),
    fc.constantFrom('Z', '', '+01:00', 'z'),
  )
  .map(([d, t, ms, zone]) => `${d}T${t}.${pad(ms, 3)}${zone}`);
const uuidish = fc.oneof(
  fc.stringMatching(/^[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}$/),
  fc.uuid().map((u) => u.replace(/-/g, '')),
);

const part = fc.oneof(
  fc.constantFrom('0', '1'),
  validInstant,
  validDate,
  validTime,
  validUuid,
  dateish,
  timeish,
  instantish,
  uuidish,
  fc.string({ unit: 'binary', maxLength: 60 }),
);
/** Anything JSON can hold that a cursor part is not. */
const notAPart = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.array(part, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), part, { maxKeys: 2 }),
);

/** Arrays of real-looking parts in any order and number, sometimes with a wrong-typed element among them. */
const plausibleTuple = fc.array(fc.oneof({ weight: 5, arbitrary: part }, { weight: 1, arbitrary: notAPart }), {
  maxLength: 4,
});

/** JSON texts that JSON.stringify never writes, or that are awkward to parse. */
const awkwardJson = fc.oneof(
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map((n) => `[${n}, "00000000-0000-0000-0000-000000000000"]`),
  fc.constantFrom('[1e400, "x"]', '[-0]', '["\\ud800", "\\u0000"]', '{"length": 2, "0": "a", "1": "b"}'),
  fc
    .tuple(validInstant, validUuid)
    .map(([at, id]) => `{"__proto__": ["${at}", "${id}"], "constructor": {"prototype": {"polluted": true}}}`),
  fc.integer({ min: 1, max: 60 }).map((depth) => `${'['.repeat(depth)}"2026-01-01"${']'.repeat(depth)}`),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `["${s}"]`),
);

/** A valid base64url cursor with one character changed, cut short, or padded. */
const corrupted = (cursor: fc.Arbitrary<string>) =>
  fc
    .tuple(cursor, fc.nat(), fc.constantFrom('A', '_', '-', '=', '.', '%', ' ', '\u00e9'), fc.constantFrom(0, 1, 2))
    .map(([c, at, ch, how]) => {
      const i = at % Math.max(c.length, 1);
      if (how === 0) return c.slice(0, i) + ch + c.slice(i + 1);
      if (how === 1) return c.slice(0, i);
      return c + ch.repeat(1 + (at % 3));
    });

/** A well-formed cursor of each list's shape: the API must answer it with a page. */
export const validRideCursor = fc.tuple(validDate, validTime, validUuid).map((parts) => b64(JSON.stringify(parts)));
export const validNewestFirstCursor = fc.tuple(validInstant, validUuid).map((parts) => b64(JSON.stringify(parts)));
/** Browse's (issue 38): a priority listing or not, with the rides' day and time, or the requests' instant. */
const validFlag = fc.constantFrom('0', '1');
export const validRideBrowseCursor = fc
  .tuple(validDate, validFlag, validTime, validUuid)
  .map((parts) => b64(JSON.stringify(parts)));
export const validRequestBrowseCursor = fc
  .tuple(validFlag, validInstant, validUuid)
  .map((parts) => b64(JSON.stringify(parts)));
/** Along the route: asked or not, any finite detour as JavaScript prints it (or Infinity), an id. */
export const validAlongRouteCursor = fc
  .tuple(
    fc.constantFrom('0', '1'),
    fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constant('Infinity')),
    validUuid,
  )
  .map((parts) => b64(JSON.stringify(parts)));

/** Whatever a client may send as `cursor`: random text, random base64url, and base64url JSON of every kind. */
export const forgedCursor = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,260}$/),
  fc.jsonValue({ maxDepth: 3 }).map((v) => b64(JSON.stringify(v) ?? 'null')),
  { weight: 4, arbitrary: plausibleTuple.map((t) => b64(JSON.stringify(t))) },
  awkwardJson.map(b64),
  corrupted(fc.oneof(validRideCursor, validNewestFirstCursor, validRideBrowseCursor, validRequestBrowseCursor)),
  validRideCursor,
  validNewestFirstCursor,
  validRideBrowseCursor,
  validRequestBrowseCursor,
);

/** Whatever a client may send as `limit`, valid or not. */
export const anyLimit = fc.oneof(
  fc.integer({ min: -5, max: 60 }).map(String),
  fc.constantFrom('', ' 5', '1e1', '0x10', '1.0', '2.5', 'Infinity', 'NaN', '-0', '9'.repeat(400)),
  fc.string({ unit: 'binary', maxLength: 10 }),
);

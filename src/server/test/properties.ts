import fc from 'fast-check';
import { isValidIsoDate } from '../../shared/dates';

/**
 * Generators for property tests of the write endpoints: each yields a bad value together with the message the API
 * must answer for it, worked out independently of the zod schemas under test.
 */

/** Length as zod and PostgreSQL's char_length count it: code points, so an emoji is one character, not two. */
const codePoints = (v: string) => [...v].length;

/** Full Unicode, astral planes included, sometimes with a NUL or padding spaces. */
export const anyText = (opts: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ unit: 'binary', ...opts });

const blank = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff'), { maxLength: 6 })
  .map((a) => a.join(''));

/** Anything JSON can carry that is not a string. */
export const notAString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** A value for a required text field that must be refused, with the expected message. */
export function badRequiredText(max: number, required: string, tooLong: string, nul: string) {
  return fc.oneof(
    blank.map((v) => [v, required] as const),
    notAString.map((v) => [v, required] as const),
    fc.constant([null, required] as const),
    anyText({ minLength: max + 1, maxLength: max * 3 })
      .filter((v) => codePoints(v.trim()) > max)
      .map((v) => [v, tooLong] as const),
    anyText({ maxLength: 20 }).map((v) => [`${v}\u0000x`, nul] as const),
  );
}

/** A value for an optional text field that must be refused, with the expected message. */
export function badOptionalText(max: number, tooLong: string, nul: string) {
  return fc.oneof(
    notAString.map((v) => [v, tooLong] as const),
    anyText({ minLength: max + 1, maxLength: max * 3 })
      .filter((v) => codePoints(v.trim()) > max)
      .map((v) => [v, tooLong] as const),
    anyText({ maxLength: 20 }).map((v) => [`a\u0000${v}`, nul] as const),
  );
}

/** A bad date with the expected message; for an optional field (emptyOk) exactly '' means "no date" and is fine. */
export function badDate(today: string, required: string, past: string, emptyOk = false) {
  const invalid = 'Please enter a valid date';
  const judge = (v: string): string | null => {
    if (emptyOk && v === '') return null;
    const t = v.trim();
    if (t === '') return required;
    if (!isValidIsoDate(t)) return invalid;
    return t < today ? past : null;
  };
  return fc
    .oneof(
      anyText({ maxLength: 12 }),
      fc
        .date({ min: new Date('1900-01-01'), max: new Date(`${today}T00:00:00Z`), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc
        .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }))
        .map(
          ([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
        ),
    )
    .map((v) => [v, judge(v)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== null);
}

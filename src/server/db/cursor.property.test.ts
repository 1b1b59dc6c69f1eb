import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import { forgedCursor, validInstant, validDate, validTime, validUuid } from '../test/cursors';
import { DomainError } from '../core/domain-error';
import {
  cursorDate,
  cursorFlag,
  cursorInstant,
  cursorTime,
  cursorUuid,
  decodeCursor,
  encodeCursor,
  isCanonicalInstant,
} from './cursor';

/** The cursor shapes the lists use (rides; requests and bookings; Browse's with the priority flag, issue 38). */
const rideCursor = z.tuple([cursorDate, cursorTime, cursorUuid]);
const newestFirstCursor = z.tuple([cursorInstant, cursorUuid]);
const rideBrowseCursor = z.tuple([cursorDate, cursorFlag, cursorTime, cursorUuid]);
const requestBrowseCursor = z.tuple([cursorFlag, cursorInstant, cursorUuid]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const inYearRange = (iso: string) => /^\d{4}-/.test(iso) && Number(iso.slice(0, 4)) >= 1000;

/** Either the parts, or the one error a bad cursor may raise; anything else thrown fails the property. */
function decodeOrRefusal<T extends z.ZodTuple>(cursor: string, schema: T) {
  try {
    return { parts: decodeCursor(cursor, schema) };
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'validation_error', message: INVALID_CURSOR_MESSAGE });
    return { parts: undefined };
  }
}

describe('decodeCursor under forged input', () => {
  it('accepts only parts PostgreSQL can cast, and refuses everything else with the cursor message', () => {
    fc.assert(
      fc.property(forgedCursor, (cursor) => {
        const ride = decodeOrRefusal(cursor, rideCursor).parts;
        if (ride) {
          const [date, time, id] = ride;
          expect(new Date(`${date}T00:00:00.000Z`).toISOString().slice(0, 10)).toBe(date);
          expect(inYearRange(date)).toBe(true);
          expect(time).toMatch(/^(([01]\d|2[0-3]):[0-5]\d:[0-5]\d|24:00:00)$/);
          expect(id).toMatch(UUID);
        }
        const newest = decodeOrRefusal(cursor, newestFirstCursor).parts;
        if (newest) {
          const [at, id] = newest;
          expect(new Date(at).toISOString()).toBe(at);
          expect(inYearRange(at)).toBe(true);
          expect(id).toMatch(UUID);
        }
        // Browse's cursors (issue 38): the priority flag is exactly '0' or '1', the other parts as above.
        const rideBrowse = decodeOrRefusal(cursor, rideBrowseCursor).parts;
        if (rideBrowse) {
          expect(['0', '1']).toContain(rideBrowse[1]);
          expect(rideBrowse[2]).toMatch(/^(([01]\d|2[0-3]):[0-5]\d:[0-5]\d|24:00:00)$/);
          expect(rideBrowse[3]).toMatch(UUID);
        }
        const requestBrowse = decodeOrRefusal(cursor, requestBrowseCursor).parts;
        if (requestBrowse) {
          expect(['0', '1']).toContain(requestBrowse[0]);
          expect(new Date(requestBrowse[1]).toISOString()).toBe(requestBrowse[1]);
          expect(requestBrowse[2]).toMatch(UUID);
        }
        if (cursor.length > 200) expect(rideBrowse ?? requestBrowse).toBeUndefined();
        if (cursor.length > 200) expect(ride ?? newest).toBeUndefined();
      }),
      { numRuns: 3000 },
    );
  });

  it('gives back exactly the parts of any cursor the server itself made', () => {
    fc.assert(
      fc.property(
        validDate,
        validTime,
        validUuid,
        validInstant,
        fc.constantFrom('0', '1'),
        (date, time, id, at, flag) => {
          expect(decodeCursor(encodeCursor([date, time, id]), rideCursor)).toEqual([date, time, id]);
          expect(decodeCursor(encodeCursor([at, id]), newestFirstCursor)).toEqual([at, id]);
          expect(decodeCursor(encodeCursor([date, flag, time, id]), rideBrowseCursor)).toEqual([date, flag, time, id]);
          expect(decodeCursor(encodeCursor([flag, at, id]), requestBrowseCursor)).toEqual([flag, at, id]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('judges any string as an instant without throwing (zod runs the refine even after the regex failed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        expect(typeof isCanonicalInstant(s)).toBe('boolean');
      }),
    );
    expect(isCanonicalInstant('2026-13-01T10:00:00.000Z')).toBe(false);
    expect(isCanonicalInstant('2026-01-01T10:00:00.000Z')).toBe(true);
  });
});

import { describe, expect, it, vi } from 'vitest';
import {
  DETAILS_REQUIRED_MESSAGE,
  DETAILS_TOO_LONG_MESSAGE,
  ITEM_VALUE_MESSAGE,
  TOO_MANY_PHOTOS_MESSAGE,
} from '@shared/disputes';
import { ApiError } from '@/lib/api-client';
import { setServerFieldError } from './dispute-form';

const REPORT = ['reason', 'details', 'item_value', 'photos'] as const;
const RESPONSE = ['details', 'photos'] as const;
const invalid = (message: string) => new ApiError(400, 'validation_error', message);

function fieldFor(fields: readonly ('reason' | 'details' | 'item_value' | 'photos')[], err: unknown) {
  const setError = vi.fn();
  setServerFieldError(setError, fields, err);
  return setError.mock.calls[0] as [string, { message: string }, { shouldFocus: boolean }] | undefined;
}

describe('setServerFieldError', () => {
  it("puts each of the report's refusals under its field, focusing all but the photos", () => {
    expect(fieldFor(REPORT, invalid(DETAILS_REQUIRED_MESSAGE))).toEqual([
      'details',
      { message: DETAILS_REQUIRED_MESSAGE },
      { shouldFocus: true },
    ]);
    expect(fieldFor(REPORT, invalid(DETAILS_TOO_LONG_MESSAGE))?.[0]).toBe('details');
    expect(fieldFor(REPORT, invalid(ITEM_VALUE_MESSAGE))?.[0]).toBe('item_value');
    expect(fieldFor(REPORT, invalid(TOO_MANY_PHOTOS_MESSAGE))).toEqual([
      'photos',
      { message: TOO_MANY_PHOTOS_MESSAGE },
      { shouldFocus: false },
    ]);
    expect(fieldFor(REPORT, new ApiError(400, 'invalid_image', 'Not an image'))?.[0]).toBe('photos');
    expect(fieldFor(REPORT, invalid('Choose a reason'))?.[0]).toBe('reason');
  });

  it("gives the response's form only its own fields", () => {
    expect(fieldFor(RESPONSE, invalid(DETAILS_TOO_LONG_MESSAGE))?.[0]).toBe('details');
    expect(fieldFor(RESPONSE, new ApiError(400, 'invalid_image', 'Not an image'))?.[0]).toBe('photos');
    expect(fieldFor(RESPONSE, invalid(ITEM_VALUE_MESSAGE))).toBeUndefined();
    expect(fieldFor(RESPONSE, invalid('Choose a reason'))).toBeUndefined();
  });

  it('leaves other failures to their toast', () => {
    expect(fieldFor(REPORT, new ApiError(409, 'dispute_exists', 'Already reported'))).toBeUndefined();
    expect(fieldFor(REPORT, invalid('Something else'))).toBeUndefined();
    expect(fieldFor(REPORT, new Error('offline'))).toBeUndefined();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isErrorBody } from './error-body';
import { errorBodySchema } from './errors';

describe('isErrorBody', () => {
  it('accepts exactly what errorBodySchema accepts', () => {
    const samples: unknown[] = [
      { code: 'not_found', message: 'Not found.' },
      { code: 'x', message: '' },
      { code: '', message: 'm' },
      { code: 1, message: 'm' },
      { code: 'x' },
      { message: 'm' },
      { code: 'x', message: 'm', extra: true },
      null,
      undefined,
      'text',
      [],
      ['x', 'm'],
    ];
    for (const value of samples)
      expect(isErrorBody(value), JSON.stringify(value)).toBe(errorBodySchema.safeParse(value).success);
    fc.assert(fc.property(fc.anything(), (value) => isErrorBody(value) === errorBodySchema.safeParse(value).success));
  });
});

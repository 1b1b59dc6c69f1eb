import { describe, expect, it } from 'vitest';
import { firstIssueMessage, normalizeEmail, signInSchema, signUpFieldsSchema, signUpSchema } from './auth';

const valid = {
  email: 'ann@example.com',
  password: 'Abcdefgh123!',
  full_name: 'Ann Smith',
  age_confirmed: true as const,
};
const first = async (input: unknown) => firstIssueMessage((await signUpSchema.safeParseAsync(input)).error);

describe('sign-up schema: every rule with its exact message', () => {
  it('accepts a valid sign-up and trims email and name', async () => {
    const r = await signUpSchema.parseAsync({ ...valid, email: '  ann@example.com ', full_name: '  Ann Smith  ' });
    expect(r.email).toBe('ann@example.com');
    expect(r.full_name).toBe('Ann Smith');
  });

  it.each([
    ['an invalid email', { email: 'not-an-email' }, 'Invalid email address'],
    ['an empty email', { email: '' }, 'Invalid email address'],
    [
      'an email over 255 characters',
      { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` },
      'Email must be less than 255 characters',
    ],
    ['a short password', { password: 'Ab1!' }, 'Password must be at least 12 characters'],
    ['no uppercase', { password: 'abcdefgh123!' }, 'Password must contain at least one uppercase letter'],
    ['no lowercase', { password: 'ABCDEFGH123!' }, 'Password must contain at least one lowercase letter'],
    ['no number', { password: 'Abcdefghijk!' }, 'Password must contain at least one number'],
    ['no special character', { password: 'Abcdefgh1234' }, 'Password must contain at least one special character'],
    ['an empty full name', { full_name: '' }, 'Full name is required'],
    ['a blank full name', { full_name: '    ' }, 'Full name is required'],
    ['a full name over 100 characters', { full_name: 'x'.repeat(101) }, 'Full name must be less than 100 characters'],
    ['no age confirmation', { age_confirmed: false }, 'You must be 18 or older to use RuralRoute.'],
  ])('refuses %s', async (_label, patch, message) => {
    expect(await first({ ...valid, ...patch })).toBe(message);
  });

  it('accepts the boundaries: 12-character password, 100-character name, 255-character email', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`;
    expect(email).toHaveLength(255);
    expect(
      (await signUpSchema.safeParseAsync({ ...valid, email, password: 'Abcdefgh12!x', full_name: 'x'.repeat(100) }))
        .success,
    ).toBe(true);
  });

  it('reports in the spec order: email, then password, then full name, then age', async () => {
    const allBad = { email: 'bad', password: 'short', full_name: '', age_confirmed: false };
    expect(await first(allBad)).toBe('Invalid email address');
    expect(await first({ ...allBad, email: valid.email })).toBe('Password must be at least 12 characters');
    expect(await first({ ...allBad, email: valid.email, password: valid.password })).toBe('Full name is required');
    expect(await first({ ...allBad, email: valid.email, password: valid.password, full_name: 'A' })).toBe(
      'You must be 18 or older to use RuralRoute.',
    );
  });

  it('reports the password rules in order: length, uppercase, lowercase, number, special', async () => {
    expect(await first({ ...valid, password: 'a' })).toBe('Password must be at least 12 characters');
    expect(await first({ ...valid, password: 'aaaaaaaaaaaa' })).toBe(
      'Password must contain at least one uppercase letter',
    );
    expect(await first({ ...valid, password: 'AAAAAAAAAAAA' })).toBe(
      'Password must contain at least one lowercase letter',
    );
    expect(await first({ ...valid, password: 'AAAAAAaaaaaa' })).toBe('Password must contain at least one number');
    expect(await first({ ...valid, password: 'AAAAAAaaaaa1' })).toBe(
      'Password must contain at least one special character',
    );
  });

  it('gives clear messages for wrong types and falls back when there is no issue', async () => {
    expect(await first({ ...valid, email: 42 })).toBe('Invalid email address');
    expect(await first({ ...valid, full_name: null })).toBe('Full name is required');
    expect(firstIssueMessage(undefined)).toBe('Please check your input');
  });
});

describe('sign-up schema: the common-password rule', () => {
  it('refuses a common password that meets every spec rule', async () => {
    expect(await first({ ...valid, password: 'Password123!' })).toBe('This password is too common. Choose another.');
  });

  it('comes after every spec rule, so the browser and the server report the same first message', async () => {
    const common = { ...valid, password: 'Password123!' };
    expect(await first({ ...common, email: 'bad' })).toBe('Invalid email address');
    expect(await first({ ...common, full_name: '' })).toBe('Full name is required');
    expect(await first({ ...common, age_confirmed: false })).toBe('You must be 18 or older to use RuralRoute.');
    // A password failing a spec rule reports that rule, not commonness ('password' fails both).
    expect(await first({ ...valid, password: 'password' })).toBe('Password must be at least 12 characters');
  });

  it('is not part of the synchronous spec-only schema the form falls back to', () => {
    expect(signUpFieldsSchema.safeParse({ ...valid, password: 'Password123!' }).success).toBe(true);
  });
});

describe('sign-in schema', () => {
  it('requires both fields', () => {
    expect(firstIssueMessage(signInSchema.safeParse({ email: '', password: 'x' }).error)).toBe('Email is required');
    expect(firstIssueMessage(signInSchema.safeParse({ email: 'a@b.co', password: '' }).error)).toBe(
      'Password is required',
    );
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com');
  });
});

import { z } from 'zod';
import { LIMITS } from './limits';
import { COMMON_PASSWORD_MESSAGE } from './password-messages';

export { COMMON_PASSWORD_MESSAGE };

/**
 * Rules for a password being set (sign-up today; a later 'change password' reuses both exports). Sign-in never
 * applies them: existing accounts keep working whatever their password.
 */

const tooShort = `Password must be at least ${LIMITS.passwordMin} characters`;

/** The spec's rules (section 5), in the order their messages are reported. */
export const newPasswordSchema = z
  .string({ error: tooShort })
  .min(LIMITS.passwordMin, tooShort)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number')
  .regex(/[^A-Za-z0-9]/, 'Password must contain at least one special character')
  // Bounded so nobody can make the server hash megabytes; far above any real password.
  .max(1024, 'Password must be less than 1024 characters');

type Checker = typeof import('./common-passwords');
let checker: Promise<Checker> | undefined;

/** Loads the common-password list once; in the browser this is a separate chunk fetched on first need. */
function loadChecker(): Promise<Checker> {
  checker ??= import('./common-passwords').catch((err: unknown) => {
    // Let a later call try again (a phone that was offline for a moment).
    checker = undefined;
    throw err;
  });
  return checker;
}

/** Starts loading the list ahead of need (e.g. when the sign-up form is idle), ignoring a failure for now. */
export function preloadCommonPasswords(): void {
  loadChecker().catch(() => undefined);
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadChecker()).isCommonPasswordNow(password);
}

/**
 * Adds the common-password rule to an object schema for the field `key`. It runs only when every other rule of
 * the object passes, so the first message reported is the same in the browser and on the server, and the
 * estimate (a few milliseconds) is spent only on otherwise valid input. It is asynchronous: parse with
 * parseAsync/safeParseAsync (Hono's validator and react-hook-form's zod resolver do).
 */
export function refuseCommonPassword<K extends string, T extends z.ZodType<Record<K, string>>>(schema: T, key: K): T {
  return schema.refine(async (value) => !(await isCommonPassword((value as Record<K, string>)[key])), {
    message: COMMON_PASSWORD_MESSAGE,
    path: [key],
    when: (payload) => payload.issues.length === 0,
  });
}

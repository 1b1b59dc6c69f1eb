import { z } from 'zod';
import { LIMITS } from './limits';
import { refuseCommonPassword, newPasswordSchema } from './password-rules';
import { PAID_PLANS } from './plans';
import { NUL_MESSAGE, noNul } from './text';

export const AGE_MESSAGE = `You must be ${LIMITS.minimumAge} or older to use RuralRoute.`;

/**
 * Sign-up contract (spec section 5). Key order matters: the first failing issue is the one shown to the user,
 * and zod reports issues in key order, then in check order within a key. This is the spec's rules only, checked
 * synchronously; `signUpSchema` adds the common-password rule.
 */
export const signUpFieldsSchema = z.object({
  email: z
    .string({ error: 'Invalid email address' })
    .trim()
    .email('Invalid email address')
    .max(LIMITS.emailMax, `Email must be less than ${LIMITS.emailMax} characters`)
    .refine(noNul, NUL_MESSAGE),
  password: newPasswordSchema,
  full_name: z
    .string({ error: 'Full name is required' })
    .trim()
    .min(1, 'Full name is required')
    .max(LIMITS.fullNameMax, `Full name must be less than ${LIMITS.fullNameMax} characters`)
    .refine(noNul, NUL_MESSAGE),
  age_confirmed: z.literal(true, { error: AGE_MESSAGE }),
});

/**
 * What the sign-up route and form apply: the spec's rules, then, once they all pass, the common-password rule
 *. Asynchronous: the list is loaded on demand, so parse it with safeParseAsync.
 */
export const signUpSchema = refuseCommonPassword(signUpFieldsSchema, 'password');
export type SignUpInput = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(LIMITS.emailMax, 'Invalid email or password')
    .refine(noNul, 'Invalid email or password'),
  // Bounded so nobody can make the server hash megabytes; far above any real password.
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Invalid email or password'),
});
export type SignInInput = z.input<typeof signInSchema>;

export const userSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  full_name: z.string(),
  /** Moderators see 'Reports' (granted with `npm run admin:grant -- email`). */
  is_admin: z.boolean(),
  /** The current address was confirmed by its link; until then the dashboard shows 'Confirm your email address'. */
  email_verified: z.boolean(),
  /** The member's plan (issue 38): what the forms offer (a ride's stops). The server checks it again on each write. */
  plan: z.enum(['free', ...PAID_PLANS]),
});
export type User = z.infer<typeof userSchema>;

export const sessionInfoSchema = z.object({
  user: userSchema.nullable(),
  session: z
    .object({
      aal: z.enum(['aal1', 'aal2']),
      idle_expires_at: z.string(),
      expires_at: z.string(),
    })
    .nullable(),
  /**
   * True when the password was right but two-factor is on and no code was given yet: the session is
   * only 'pending' (user and session are null) until `POST /api/auth/two-factor` takes a code. Absent otherwise.
   */
  two_factor_pending: z.boolean().optional(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export { SIGNED_IN_AS_HEADER, SIGNED_OUT } from './signed-in-as';

/** Email as stored and compared: trimmed, lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The first message a failed parse reports, as the spec's 'Validation Error' toast shows it. */
export function firstIssueMessage(error: z.ZodError | undefined, fallback = 'Please check your input'): string {
  return error?.issues[0]?.message ?? fallback;
}

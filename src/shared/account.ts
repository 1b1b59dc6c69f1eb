import { z } from 'zod';
import { signUpFieldsSchema } from './auth';
import { LIMITS } from './limits';
import { newPasswordSchema, refuseCommonPassword } from './password-rules';
import { NUL_MESSAGE, noNul } from './text';

/**
 * Account settings and password recovery (first slice: profile, password, sessions, forgotten password).
 * `/dashboard/settings` shows one card per section, each its own form with its own save button and toast.
 */

export const ABOUT_MAX = 500;
export const ABOUT_MESSAGE = `About you must be less than ${ABOUT_MAX} characters`;

/** `PATCH /api/account/profile` -> AccountProfile. Toast 'Profile updated'. */
export const profileInputSchema = z.object({
  full_name: signUpFieldsSchema.shape.full_name,
  about: z
    .string({ error: ABOUT_MESSAGE })
    .trim()
    .max(ABOUT_MAX, ABOUT_MESSAGE)
    .refine(noNul, NUL_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type ProfileInput = z.input<typeof profileInputSchema>;

/** `GET /api/account/profile`. */
export const accountProfileSchema = z.object({
  full_name: z.string(),
  about: z.string().nullable(),
  email: z.string(),
  /**
   * Settings 'Email': the new address of a change waiting for its link to be opened (unused, unexpired); null when
   * none. Always sent by the server; optional so older callers and test stubs without it read as 'none'.
   */
  pending_email: z.string().nullable().optional(),
});
export type AccountProfile = z.infer<typeof accountProfileSchema>;

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const CURRENT_PASSWORD_REQUIRED = 'Current password is required';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

const currentPassword = z
  .string({ error: CURRENT_PASSWORD_REQUIRED })
  .min(1, CURRENT_PASSWORD_REQUIRED)
  .max(1024, WRONG_CURRENT_PASSWORD);

/**
 * `POST /api/account/password` -> 204. Spec rules and the common-password check on the new one; the server also
 * checks the current one (400 field error WRONG_CURRENT_PASSWORD, counted like sign-in failures). On success every
 * other session ends and the 'password_changed' security notice is sent. Toast 'Password changed'.
 * Parse with safeParseAsync (the common-password list loads on demand).
 */
export const changePasswordSchema = refuseCommonPassword(
  z
    .object({
      current_password: currentPassword,
      new_password: newPasswordSchema,
      confirm_password: z.string({ error: PASSWORDS_DO_NOT_MATCH }),
      /** With two-factor on and no check in the last 10 minutes (src/shared/two-factor.ts). */
      code: z.string().trim().max(100).optional(),
    })
    .refine((v) => v.new_password === v.confirm_password, {
      message: PASSWORDS_DO_NOT_MATCH,
      path: ['confirm_password'],
    }),
  'new_password',
);
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** One signed-in browser (`GET /api/account/sessions`, newest activity first). */
export const accountSessionSchema = z.object({
  id: z.string().uuid(),
  /** 'Chrome on Windows' (from the user agent). */
  browser: z.string(),
  signed_in_at: z.string(),
  last_active_at: z.string(),
  /** The session making this request: 'This device', no 'Sign out' button. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsSchema = z.object({ items: z.array(accountSessionSchema) });
/**
 * `DELETE /api/account/sessions/:id` -> 204 (404 'Session not found.' for another's, the current one, or unknown);
 * `POST /api/account/sessions/sign-out-others` -> { count }. Both revoke on every instance at once.
 */
export const SIGN_OUT_OTHERS_LABEL = 'Sign out of all other sessions';

/** `POST /api/auth/forgot-password` { email } -> 200 { message } always the same (no enumeration). */
export const FORGOT_PASSWORD_ANSWER = "If an account exists for that email, we've sent a link to reset the password.";
export const forgotPasswordSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(LIMITS.emailMax, 'Invalid email address')
    .email('Invalid email address')
    .refine(noNul, NUL_MESSAGE),
});
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;
/** The reset link is valid this long, once. */
export const RESET_LINK_MINUTES = 60;
export const RESET_LINK_EXPIRED = 'This link has expired. Ask for a new one.';

/**
 * `POST /api/auth/reset-password` { token, new_password, confirm_password } -> 204: sets the password, ends every
 * session, sends the 'password_changed' notice. An expired, used or unknown token: 400 code 'reset_link_expired'
 * with RESET_LINK_EXPIRED. The client then shows toast 'Password updated. You can now sign in.'
 * Parse with safeParseAsync.
 */
export const resetPasswordSchema = refuseCommonPassword(
  z
    .object({
      token: z.string({ error: RESET_LINK_EXPIRED }).min(1, RESET_LINK_EXPIRED).max(200, RESET_LINK_EXPIRED),
      new_password: newPasswordSchema,
      confirm_password: z.string({ error: PASSWORDS_DO_NOT_MATCH }),
    })
    .refine((v) => v.new_password === v.confirm_password, {
      message: PASSWORDS_DO_NOT_MATCH,
      path: ['confirm_password'],
    }),
  'new_password',
);
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export const PASSWORD_UPDATED_TOAST = 'Password updated. You can now sign in.';

// ─── Email ────────────────────────────────────────────────────────────────────────────────────────────
/** The confirmation link to the new address is valid this long, once. */
export const EMAIL_LINK_HOURS = 24;
export const EMAIL_LINK_EXPIRED = RESET_LINK_EXPIRED;
export const SAME_EMAIL_MESSAGE = 'That is already your email address';
export const EMAIL_CHANGED_TOAST = 'Email changed';
/** The 'Email' card while a change waits: 'Waiting for confirmation of {new address}'. */
export const waitingForConfirmation = (address: string) => `Waiting for confirmation of ${address}`;

/**
 * `POST /api/account/email` { new_email, current_password, code? } -> 202 { pending_email }. The same answer
 * whether the new address is free or taken (no enumeration): a free one gets the confirmation link (valid
 * EMAIL_LINK_HOURS, once), a taken one gets a mail saying an account already uses it, both from a job. Wrong
 * password: 400 `wrong_password` WRONG_CURRENT_PASSWORD; the current address: 400 SAME_EMAIL_MESSAGE; with
 * two-factor on and no recent check, a `code` (src/shared/two-factor.ts). A newer request replaces the pending one.
 * `DELETE /api/account/email` -> 204 cancels the pending change.
 */
export const changeEmailSchema = z.object({
  new_email: forgotPasswordSchema.shape.email,
  current_password: currentPassword,
  code: z.string().trim().max(100).optional(),
});
export type ChangeEmailInput = z.input<typeof changeEmailSchema>;
export const pendingEmailSchema = z.object({ pending_email: z.string() });

/**
 * `POST /api/auth/confirm-email` { token } (no session needed) -> 200 { email }: the account's address is now the new
 * one; the old address gets the 'email_changed' security notice (data.to = old, data.new_email = new); every
 * instance shows the new address at once. Expired, used or unknown: 400 `email_link_expired` EMAIL_LINK_EXPIRED;
 * the address was taken meanwhile: 409 `email_taken`. Page: PAGE_PATHS.confirmEmail ('Email changed').
 */
export const confirmEmailSchema = z.object({
  token: z.string({ error: EMAIL_LINK_EXPIRED }).min(1, EMAIL_LINK_EXPIRED).max(200, EMAIL_LINK_EXPIRED),
});

// ─── Your data, Delete account ────────────────────────────────────────────────────────────────────────
/**
 * `GET /api/account/export` (recent check) -> 200 application/json, `Content-Disposition: attachment;
 * filename="ruralroute-data-YYYY-MM-DD.json"`: every key below, each a list (or an object) of what is stored about
 * me, with ids, times as ISO strings and other people only by id and name.
 */
export const EXPORT_SECTIONS = [
  'account',
  'rides',
  'requests',
  'bookings_as_driver',
  'bookings_as_requester',
  'messages',
  'reviews_by_me',
  'reviews_about_me',
  'notifications',
  'notification_settings',
  'sessions',
  'reports',
  'blocks',
  'saved_searches',
  'payments',
  'payouts',
] as const;
export const DOWNLOAD_DATA_LABEL = 'Download my data';

export const DELETE_CONFIRM_WORD = 'DELETE';
export const DELETE_CONFIRM_MESSAGE = 'Type DELETE to confirm';
/** What the other people of a deleted account's messages, reviews and bookings see. */
export const DELETED_USER_NAME = 'Deleted user';
/** Cancelled bookings of a deleted account carry this reason (lifecycle's cancel reasons). */
export const ACCOUNT_DELETED_REASON = 'Account deleted';

/**
 * `POST /api/account/delete` { confirm: 'DELETE', password, code? } -> 204 and the session cookie cleared. The code
 * is required whenever two-factor is on. In one transaction: open offers withdrawn, confirmed bookings cancelled
 * (reason 'account_deleted', the other person notified), rides and requests without bookings removed and the
 * others closed, name/e-mail/password/about/sessions/tokens/notifications erased; messages and reviews stay,
 * shown as DELETED_USER_NAME. A confirmation mail goes to the old address; the address can sign up again.
 */
export const deleteAccountSchema = z.object({
  confirm: z
    .string({ error: DELETE_CONFIRM_MESSAGE })
    .refine((v) => v.trim() === DELETE_CONFIRM_WORD, DELETE_CONFIRM_MESSAGE),
  password: currentPassword,
  code: z.string().trim().max(100).optional(),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;
export const ACCOUNT_DELETED_TOAST = 'Your account was deleted';

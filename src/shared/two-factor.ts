import { z } from 'zod';

/**
 * Two-factor sign-in and the re-check of sensitive actions. Docs: docs/security.md.
 *
 * - TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of drift either way), secrets from otplib. A code is
 *   accepted once: a time step at or before the last one used is refused (replay).
 * - 10 recovery codes 'xxxxx-xxxxx' (lower-case base32 letters and digits), each usable once, stored as SHA-256.
 *   Typed with or without the dash, spaces or capitals.
 * - With two-factor on, a correct password gives a session at aal1 that is only 'pending': it is signed out for every
 *   other purpose (GET /auth/session answers `{ user: null, session: null, two_factor_pending: true }`), until
 *   `POST /api/auth/two-factor` takes a code; then the session is aal2 and the dashboard opens.
 * - Sensitive actions need a recent check: the session's last password (+ code) check within RECENT_CHECK_MINUTES.
 *   Signing in counts as one. Actions without a password field (two-factor set-up and turn off, new recovery
 *   codes, download my data) answer 403 `reauth_required` when the check is older; the client then shows
 *   'Confirm it's you' (POST /api/account/confirm-identity) and repeats the action. Forms with a password field
 *   (email, password, delete account) check the password every time, and a code when two-factor is on and the last
 *   check is older (delete account: always): 400 `code_required` with CODE_REQUIRED on the `code` field.
 */

export const RECENT_CHECK_MINUTES = 10;
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_DIGITS = 6;

export const CODE_LABEL = 'Authentication code';
export const USE_RECOVERY_CODE_LABEL = 'Use a recovery code';
export const RECOVERY_CODE_LABEL = 'Recovery code';
export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app';
export const WRONG_CODE = 'That code is not valid. Try again.';
export const REAUTH_REQUIRED = 'Please confirm it’s you to continue.';
export const CONFIRM_IDENTITY_TITLE = 'Confirm it’s you';
export const WRONG_PASSWORD = 'Password is incorrect';

/** A 6-digit code as typed: spaces are dropped ('123 456'). */
export const totpCodeSchema = z
  .string({ error: CODE_REQUIRED })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, CODE_REQUIRED));

/** A recovery code as typed: case, spaces and dashes do not matter; normalized to 'xxxxx-xxxxx'. */
export const recoveryCodeSchema = z
  .string({ error: WRONG_CODE })
  .max(100, WRONG_CODE)
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, WRONG_CODE))
  .transform((v) => `${v.slice(0, 5)}-${v.slice(5)}`);

/**
 * A code where either kind is accepted (turning two-factor off, the 'code' of a sensitive form): six digits are a
 * TOTP code, anything else is tried as a recovery code. Kept as typed (trimmed); the server tells them apart.
 */
export const anyCodeSchema = z.string({ error: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED).max(100, WRONG_CODE);

/**
 * `POST /api/auth/two-factor` (the pending session's cookie) { code } or { recovery_code } -> 200 SessionInfo at
 * aal2. Wrong: 400 `wrong_code` WRONG_CODE; no pending session: 401; counted like passwords: 429.
 */
export const signInCodeSchema = z.union([
  z.object({ code: totpCodeSchema }).strict(),
  z.object({ recovery_code: recoveryCodeSchema }).strict(),
]);
export type SignInCodeInput = z.input<typeof signInCodeSchema>;

/** `GET /api/account/two-factor`. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes (0 when off). */
  recovery_codes_left: z.number().int(),
  /**
   * Whether this session's last password (+ code) check is within RECENT_CHECK_MINUTES: the password forms then
   * need no code. The server decides again on every action.
   */
  recently_checked: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/**
 * `POST /api/account/two-factor/setup` (recent check; 409 `two_factor_state` when already on) -> a new secret,
 * replacing any unfinished set-up. Nothing changes until it is confirmed.
 */
export const twoFactorSetupSchema = z.object({
  /** Base32, shown as text for typing into an app ('Can't scan? Enter this key'). */
  secret: z.string(),
  /** otpauth://totp/RuralRoute:{email}?secret=...&issuer=RuralRoute */
  otpauth_url: z.string(),
  /** The QR code of otpauth_url as an SVG data URL (`data:image/svg+xml;base64,...`). */
  qr_code: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/**
 * `POST /api/account/two-factor/enable` { code } -> { recovery_codes } (shown once). Wrong code: 400 `wrong_code`;
 * no set-up started (or already on): 409 `two_factor_state`. This session becomes aal2; the user's other sessions
 * are then pending and must give a code; 'two_factor_enabled' security notice.
 */
export const enableTwoFactorSchema = z.object({ code: totpCodeSchema });
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/**
 * `POST /api/account/two-factor/disable` { code } (recent check; a current TOTP code or a recovery code) -> 204;
 * 'two_factor_disabled' security notice. `POST /api/account/two-factor/recovery-codes` (recent check, empty body)
 * -> RecoveryCodes: the old ones stop working.
 */
export const disableTwoFactorSchema = z.object({ code: anyCodeSchema });

/**
 * `POST /api/account/confirm-identity` { password, code? } -> 204: the session counts as recently checked.
 * Wrong password: 400 `wrong_password` WRONG_PASSWORD (field 'password'); two-factor on and no code: 400
 * `code_required`; wrong code: 400 `wrong_code`. Counted per account like sign-in failures (429).
 */
export const confirmIdentitySchema = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024, WRONG_PASSWORD),
  code: anyCodeSchema.optional(),
});
export type ConfirmIdentityInput = z.input<typeof confirmIdentitySchema>;

export const TWO_FACTOR_TOASTS = {
  enabled: 'Two-factor authentication is on',
  disabled: 'Two-factor authentication is off',
  newCodes: 'New recovery codes created',
  copied: 'Recovery codes copied',
} as const;

/**
 * The e-mail check's words and limits (issue 37), apart from src/shared/verification.ts (which re-exports them) so
 * the dashboard's first screen, which shows the 'Confirm your email address' banner, loads no schema code.
 */

// ─── E-mail ────────────────────────────────────────────────────────────────────────────────────────────────
/** A sign-up's confirmation link (and 'Resend email') works this long, once. */
export const EMAIL_VERIFY_LINK_HOURS = 24;
/** 'Resend email' mails at most this many links per account per hour. */
export const EMAIL_VERIFY_SENDS_PER_HOUR = 3;
export const EMAIL_BANNER_TITLE = 'Confirm your email address';
export const EMAIL_BANNER_RESEND = 'Resend email';
export const EMAIL_VERIFIED_TITLE = 'Your email address is confirmed.';
export const EMAIL_VERIFY_EXPIRED =
  'This link has expired or was already used. Sign in and choose ‘Resend email’ on your dashboard to get a new one.';

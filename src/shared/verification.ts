import { z } from 'zod';

/**
 * Verified profiles (issue 37, docs/verification.md): a person's e-mail, phone and identity, each checked by
 * RuralRoute. The three states live on `profiles` beside the rating, so every place that shows a name can show the
 * 'Verified' badge (all three) without another read.
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

// ─── Phone ─────────────────────────────────────────────────────────────────────────────────────────────────
export const PHONE_CODE_LENGTH = 6;
export const PHONE_CODE_MINUTES = 10;
/** Wrong codes a sent code allows before it stops working. */
export const PHONE_CODE_TRIES = 5;
/** Codes sent per hour, counted per number and per account (PostgreSQL counters, every instance). */
export const PHONE_SENDS_PER_HOUR = 3;

// ─── ID ────────────────────────────────────────────────────────────────────────────────────────────────────
export const ID_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const ID_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const ID_PHOTO_KINDS = ['front', 'selfie'] as const;
export type IdPhotoKind = (typeof ID_PHOTO_KINDS)[number];
export const ID_CONSENT =
  'I agree that RuralRoute moderators may view these photos to verify my identity. They are deleted once the check is done.';
export const ID_CHECK_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type IdCheckStatus = (typeof ID_CHECK_STATUSES)[number];
export const ID_REJECT_REASONS = {
  unreadable: 'Photo unreadable',
  name_mismatch: 'Name does not match',
  expired: 'Document expired',
  other: 'Other',
} as const;
export type IdRejectReason = keyof typeof ID_REJECT_REASONS;
export const ID_REJECT_REASON_KEYS = Object.keys(ID_REJECT_REASONS) as [IdRejectReason, ...IdRejectReason[]];
/** After a rejection, a new attempt may be sent this many hours later. */
export const ID_RETRY_HOURS = 24;
/** At most this many attempts in ID_ATTEMPT_WINDOW_DAYS. */
export const ID_ATTEMPTS_MAX = 3;
export const ID_ATTEMPT_WINDOW_DAYS = 30;
/** Said in the profile form before saving a new name while 'ID checked' holds. */
export const NAME_CHANGE_UNCHECKS_ID =
  'Changing your name removes ‘ID checked’ from your profile until your ID is checked again.';

// ─── What others see ───────────────────────────────────────────────────────────────────────────────────────
export const VERIFICATION_LABELS = {
  email: 'Email verified',
  phone: 'Phone verified',
  id: 'ID checked',
} as const;
export const VERIFIED_BADGE = 'Verified';
/** The badge's accessible label (screen readers hear why it is there). */
export const VERIFIED_BADGE_LABEL = 'Verified: email, phone and ID checked';
export const VERIFIED_FILTER_LABEL = 'Verified members only';

/** A person named in a view: their profile link and name. */
export const personSchema = z.object({ id: z.string().uuid(), full_name: z.string() });
/** A person named where others decide whom to trust (booking pages, offers, messages, reviews): with the badge. */
export const shownPersonSchema = personSchema.extend({
  /** Email, phone and ID all checked: the 'Verified' badge beside the name. */
  verified: z.boolean(),
});
export type ShownPerson = z.infer<typeof shownPersonSchema>;

/** A profile's three checks, as its page shows them. */
export const verificationStateSchema = z.object({
  email: z.boolean(),
  phone: z.boolean(),
  id: z.boolean(),
});
export type VerificationState = z.infer<typeof verificationStateSchema>;
export const isVerified = (v: VerificationState) => v.email && v.phone && v.id;

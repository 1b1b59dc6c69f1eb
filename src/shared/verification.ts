import { z } from 'zod';

/**
 * Verified profiles (issue 37, docs/verification.md): a person's e-mail, phone and identity, each checked by
 * RuralRoute. The three states live on `profiles` beside the rating, so every place that shows a name can show the
 * 'Verified' badge (all three) without another read.
 */

// ─── E-mail: the words (and limits) live in verification-words.ts, which loads no zod (the dashboard's banner).
export * from './verification-words';

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
/** A person named where others decide whom to trust (booking pages, offers, messages, reviews): with the badges. */
export const shownPersonSchema = personSchema.extend({
  /** Email, phone and ID all checked: the 'Verified' badge beside the name. */
  verified: z.boolean(),
  /** A Community member (issue 38): the 'Ambassador' badge follows the 'Verified' one. Absent from old answers: false. */
  ambassador: z.boolean().default(false),
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

// ─── Phone API ─────────────────────────────────────────────────────────────────────────────────────────────
// GET /api/account/phone -> PhoneState; POST /api/account/phone { phone } -> 202 PhoneState (a code is on its way);
// POST /api/account/phone/confirm { code } -> PhoneState; DELETE /api/account/phone -> 204 (docs/verification.md).

export const PHONE_LABEL = 'Phone number';
export const PHONE_REQUIRED = 'Enter your phone number.';
export const PHONE_INVALID = 'Enter a US phone number with its area code, like (201) 555-0123.';
export const PHONE_NOT_US = 'Only US phone numbers can be verified for now. Enter a US number with its area code.';
export const PHONE_TAKEN = 'This phone number is already verified on another account.';
export const PHONE_ALREADY_YOURS = 'This phone number is already verified on your account.';
export const PHONE_CODE_FORMAT = `Enter the ${PHONE_CODE_LENGTH}-digit code from the text message.`;
export const PHONE_CODE_EXPIRED = 'This code has expired. Ask for a new code.';
export const PHONE_NO_CODE = 'There is no code waiting for you. Ask for a new code.';
export const PHONE_CODE_LOCKED = `This code has stopped working after ${PHONE_CODE_TRIES} wrong tries. Ask for a new code.`;
/** A wrong code while tries are left; at 0 the code has stopped working. */
export const phoneCodeWrong = (triesLeft: number) =>
  triesLeft > 0
    ? `That code is not right. You have ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
    : 'That code is not right, and it has now stopped working. Ask for a new code.';
/** The text message itself. */
export const phoneCodeSms = (code: string) =>
  `Your RuralRoute code is ${code}. It expires in ${PHONE_CODE_MINUTES} minutes.`;

/**
 * The number as typed: the form checks that it could be a phone number; the server parses it (US only, with
 * libphonenumber-js) and answers PHONE_INVALID or PHONE_NOT_US when it is not one.
 */
export const phoneInputSchema = z.object({
  phone: z
    .string({ error: PHONE_REQUIRED })
    .trim()
    .min(1, PHONE_REQUIRED)
    .max(30, PHONE_INVALID)
    .regex(/^[\d\s()+.-]+$/, PHONE_INVALID),
});
export type PhoneInput = z.infer<typeof phoneInputSchema>;

export const phoneCodeSchema = z.object({
  code: z
    .string({ error: PHONE_CODE_FORMAT })
    .trim()
    .regex(new RegExp(`^\\d{${PHONE_CODE_LENGTH}}$`), PHONE_CODE_FORMAT),
});
export type PhoneCodeInput = z.infer<typeof phoneCodeSchema>;

/** My number as Settings shows it: numbers in US national form, '(201) 555-0123'; times ISO. */
export const phoneStateSchema = z.object({
  /** My verified number, or null. */
  phone: z.string().nullable(),
  verified_at: z.string().nullable(),
  /** A code sent (or on its way) that still works: the number it went to and when it stops working. */
  pending: z.object({ phone: z.string(), expires_at: z.string() }).nullable(),
});
export type PhoneState = z.infer<typeof phoneStateSchema>;
// ─── ID check API ──────────────────────────────────────────────────────────────────────────────────────────
/** 'ID' in Settings > 'Verification' and the moderators' page: the wording both the form and the server use. */
export const ID_PHOTO_FIELDS = {
  front: 'Photo of your ID (front)',
  selfie: 'A selfie',
} as const satisfies Record<IdPhotoKind, string>;
const photoName = { front: 'The photo of your ID', selfie: 'The selfie' } as const satisfies Record<
  IdPhotoKind,
  string
>;
export const ID_PHOTO_MESSAGES = {
  missing: (kind: IdPhotoKind) =>
    kind === 'front' ? 'Please choose a photo of the front of your ID.' : 'Please choose a selfie.',
  type: (kind: IdPhotoKind) => `${photoName[kind]} must be a JPEG, PNG or WebP image.`,
  size: (kind: IdPhotoKind) => `${photoName[kind]} is larger than 10 MB. Please choose a smaller photo.`,
} as const;
export const ID_CONSENT_REQUIRED = 'Please tick the box to agree that moderators may view these photos.';
export const ID_CHECK_ERRORS = {
  pending: 'Your ID check is waiting for a moderator. You can send a new one once it is decided.',
  checked: 'Your ID is already checked.',
  attempts: `You have sent ${ID_ATTEMPTS_MAX} ID checks in the last ${ID_ATTEMPT_WINDOW_DAYS} days, the most allowed.`,
  decided: 'This ID check was already decided.',
  name_changed:
    'The person changed their name since sending this check. Reject it (‘Name does not match’) so they can send a new one.',
} as const;
/** After a rejection (ID_RETRY_HOURS) or at the attempts' limit: when the next check may be sent. */
export const idRetryMessage = (date: string) => `You can try again on ${date}.`;
export const ID_SENT_TOAST = 'Thank you. A moderator will check your ID, usually within a day.';
export const ID_APPROVED_TOAST = 'ID check approved.';
export const ID_REJECTED_TOAST = 'ID check rejected.';
export const ID_WAITING = 'Waiting for a moderator';
export const idRejectedState = (reason: string, date: string | null) =>
  `Not approved: ${reason}.${date ? ` ${idRetryMessage(date)}` : ''}`;

/** GET /api/account/id-check: my ID check's state (never the photos). */
export const idCheckStateSchema = z.object({
  /** 'ID checked' holds on my profile now. */
  checked: z.boolean(),
  /** My latest check's status, or 'none'. */
  status: z.enum(['none', ...ID_CHECK_STATUSES]),
  submitted_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** The latest check's rejection reason, as its label. */
  reason: z.string().nullable(),
  /** When a new check may be sent, if not now (after a rejection, or at the limit of attempts). */
  next_attempt_at: z.string().nullable(),
  attempts_left: z.number().int().min(0),
});
export type IdCheckState = z.infer<typeof idCheckStateSchema>;

/** A moderator's decision (POST /api/admin/verifications/:id/decision); `reason` is required to reject. */
export const ID_REASON_REQUIRED = 'Choose a reason for the rejection.';
export const idCheckDecisionSchema = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'Choose ‘Approve’ or ‘Reject’.' }),
  reason: z.enum(ID_REJECT_REASON_KEYS, { error: 'Choose a reason from the list.' }).optional(),
});
export type IdCheckDecision = z.infer<typeof idCheckDecisionSchema>;

/** Where a moderator's browser loads a pending check's photo. */
export const idCheckPhotoPath = (checkId: string, kind: IdPhotoKind) =>
  `/api/admin/verifications/${checkId}/photos/${kind}`;

/** One pending check in the moderators' queue (GET /api/admin/verifications, oldest first). */
export const adminIdCheckSchema = z.object({
  id: z.string().uuid(),
  user_id: z.string().uuid(),
  /** The name the check was sent under, and the profile's name now. */
  full_name: z.string(),
  current_name: z.string(),
  submitted_at: z.string(),
  /** The person's checks sent before this one. */
  earlier_attempts: z.number().int().min(0),
  photos: z.object({ front: z.string(), selfie: z.string() }),
});
export type AdminIdCheck = z.infer<typeof adminIdCheckSchema>;

/** 'November 30, 2026 at 10:15 PM': when a new check may be sent, where the reader is (the server says UTC). */
export function formatRetryAt(iso: string, timeZone?: string): string {
  const text = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone }).format(
    new Date(iso),
  );
  return timeZone === 'UTC' ? `${text} UTC` : text;
}

import { z } from 'zod';
import { bookingRoleSchema } from './lifecycle';
import { ratingSummarySchema } from './rating';
import { NUL_MESSAGE, noNul } from './text';
import { personSchema, shownPersonSchema, verificationStateSchema } from './verification';

/**
 * Reviews and profiles. Double-blind: each person of a completed booking may review the other once,
 * within REVIEW_WINDOW_DAYS of completion. Neither review is shown to anyone but its author until both have
 * reviewed or the window has closed; then both are published together (one transaction, which also updates the
 * rating counters on the reviewed people's profiles).
 */
export const REVIEW_WINDOW_DAYS = 14;
export const REVIEW_COMMENT_MAX = 1000;
export const REVIEW_REPLY_MAX = 500;
export const RATING_VALUES = [1, 2, 3, 4, 5] as const;

export const RATING_REQUIRED_MESSAGE = 'Please choose a rating';
export const RATING_MESSAGE = 'Rating must be a whole number from 1 to 5';
export const COMMENT_MESSAGE = 'Comment must be less than 1000 characters';
export const REPLY_REQUIRED_MESSAGE = 'Reply is required';
export const REPLY_MESSAGE = 'Reply must be less than 500 characters';

/** `POST /api/bookings/:id/review` -> 201 with the booking's BookingReviews. */
export const reviewInputSchema = z.object({
  rating: z
    .number({
      error: (issue) => (issue.input === undefined || issue.input === null ? RATING_REQUIRED_MESSAGE : RATING_MESSAGE),
    })
    .int(RATING_MESSAGE)
    .min(1, RATING_MESSAGE)
    .max(5, RATING_MESSAGE),
  comment: z
    .string({ error: COMMENT_MESSAGE })
    .trim()
    .max(REVIEW_COMMENT_MAX, COMMENT_MESSAGE)
    .refine(noNul, NUL_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

/** `POST /api/reviews/:id/reply` -> 200 with the Review. Only the reviewed person, once, under a published review. */
export const replyInputSchema = z.object({
  body: z
    .string({ error: REPLY_REQUIRED_MESSAGE })
    .trim()
    .min(1, REPLY_REQUIRED_MESSAGE)
    .max(REVIEW_REPLY_MAX, REPLY_MESSAGE)
    .refine(noNul, NUL_MESSAGE),
});
export type ReplyInput = z.input<typeof replyInputSchema>;

export const reviewSchema = z.object({
  id: z.string().uuid(),
  booking_id: z.string().uuid(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  reviewer: shownPersonSchema,
  /** The reviewer's part in the booking: 'driver' reviewed the requester, and the other way round. */
  reviewer_role: bookingRoleSchema,
  reviewee: personSchema,
  created_at: z.string(),
  /** Null until published (only its author sees it then). */
  published_at: z.string().nullable(),
  /** The reviewed person's one public answer. */
  reply: z.object({ body: z.string(), created_at: z.string() }).nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

/**
 * `GET /api/bookings/:id/review`: the review part of a booking page, for either of its two people (anyone else 404).
 * - state: 'not_completed' (no review yet possible), 'open' (until closes_at), 'closed' (the period has ended).
 * - mine: my review, published or not; theirs: the other's review of me, only once published.
 * - other_reviewed: the other person has reviewed me (its content stays hidden until published).
 */
export const bookingReviewsSchema = z.object({
  state: z.enum(['not_completed', 'open', 'closed']),
  /** When the period closes (completion + 14 days); null while not completed. */
  closes_at: z.string().nullable(),
  mine: reviewSchema.nullable(),
  theirs: reviewSchema.nullable(),
  other_reviewed: z.boolean(),
});
export type BookingReviews = z.infer<typeof bookingReviewsSchema>;

/** `GET /api/users/:id`: any signed-in user's public profile; a missing or suspended account is 404. */
export const profileSchema = z.object({
  id: z.string().uuid(),
  full_name: z.string(),
  /** 'About you' from Settings, or null when not written. */
  about: z.string().nullable(),
  /** When the account was created ('Member since November 2026'). */
  member_since: z.string(),
  /** Completed bookings as driver. */
  deliveries_made: z.number().int(),
  /** Completed bookings as requester. */
  requests_delivered: z.number().int(),
  rating: ratingSummarySchema,
  /** The three checks ('Email verified', 'Phone verified', 'ID checked'); all three: the 'Verified' badge. */
  verification: verificationStateSchema,
  verified: z.boolean(),
  /** A Community member (issue 38): the 'Ambassador' badge. */
  ambassador: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;
/** `GET /api/users/:id/reviews?cursor=&limit=`: published reviews of the person, newest first, keyset-paginated. */

export const REVIEW_TEXT = {
  leave: 'Leave a review',
  submit: 'Submit review',
  submitted: 'Review submitted',
  periodEnded: 'The review period for this delivery has ended.',
  reply: 'Reply',
  replyPosted: 'Reply posted',
  noReviews: 'No reviews yet.',
} as const;

/** The reviews' stable refusals (toast title / description); HTTP statuses live in src/server/http/error-status.ts. */
export const REVIEW_ERRORS = {
  review_not_open: { title: 'Error', message: 'You can review this delivery once it is completed.' },
  review_period_ended: { title: 'Error', message: REVIEW_TEXT.periodEnded },
  already_reviewed: { title: 'Error', message: 'You have already reviewed this delivery.' },
  already_replied: { title: 'Error', message: 'You have already replied to this review.' },
} as const;
export type ReviewErrorCode = keyof typeof REVIEW_ERRORS;

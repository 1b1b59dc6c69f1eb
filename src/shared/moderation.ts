import { z } from 'zod';
import { NUL_MESSAGE, noNul } from './text';

/** Reporting, blocking and moderation. */
export const REPORT_REASONS = {
  spam: 'Spam or scam',
  unsafe: 'Unsafe behaviour',
  prohibited_item: 'Prohibited item',
  other: 'Other',
} as const;
export type ReportReason = keyof typeof REPORT_REASONS;
export const reportReasonSchema = z.enum(Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]], {
  error: 'Please choose a reason',
});

export const REPORT_DETAILS_MAX = 1000;
export const REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;
export const MODERATION_ACTIONS = [
  'dismiss_report',
  'suspend_account',
  'lift_suspension',
  // A dispute's decision (issue 36): held money released, refunded or split; a guarantee claim approved or declined.
  'dispute_release',
  'dispute_refund',
  'dispute_split',
  'claim_approve',
  'claim_decline',
  // A problem reported after completion that moves no money, answered with a note.
  'dispute_close',
  // An admin adding the platform's money to the Delivery Guarantee's reserve (the payments page).
  'reserve_fund',
  // An ID check decided (issue 37): approved, or rejected with a reason (the note).
  'id_approve',
  'id_reject',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** `POST /api/reports`: 201. `booking_id`, when given, must be a booking the reporter and the reported share. */
export const reportInputSchema = z.object({
  reported_user_id: z.string({ error: 'Not found' }).uuid('Not found'),
  booking_id: z.string().uuid('Not found').nullish(),
  /** A published review being reported: `reported_user_id` must be its author. */
  review_id: z.string().uuid('Not found').nullish(),
  reason: reportReasonSchema,
  details: z
    .string({ error: 'Details are required' })
    .trim()
    .min(1, 'Details are required')
    .max(REPORT_DETAILS_MAX, 'Details must be less than 1000 characters')
    .refine(noNul, NUL_MESSAGE),
});
export type ReportInput = z.input<typeof reportInputSchema>;

const person = z.object({ id: z.string().uuid(), full_name: z.string() });

/** `POST /api/blocks` {user_id} -> 201 (200 if already blocked); `DELETE /api/blocks/:userId` -> 204. */
export const blockInputSchema = z.object({ user_id: z.string({ error: 'Not found' }).uuid('Not found') });
/** `GET /api/blocks` (keyset-paginated, newest first): the people I blocked. */
export const blockedPersonSchema = z.object({ user: person, created_at: z.string() });
export type BlockedPerson = z.infer<typeof blockedPersonSchema>;

/** `GET /api/admin/reports?status=open|dismissed|actioned` (admins only; everyone else 404), oldest open first. */
export const adminReportSchema = z.object({
  id: z.string().uuid(),
  reason: reportReasonSchema,
  details: z.string(),
  status: z.enum(REPORT_STATUSES),
  created_at: z.string(),
  reporter: person,
  reported: person.extend({ suspended: z.boolean() }),
  booking: z.object({ id: z.string().uuid(), request_title: z.string() }).nullable(),
  /** The reported review, when the report is about one. */
  review: z.object({ id: z.string().uuid(), rating: z.number().int(), comment: z.string().nullable() }).nullable(),
  resolved_at: z.string().nullable(),
  resolved_by: person.nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;
export const adminReportQuerySchema = z.object({ status: z.enum(REPORT_STATUSES).default('open') });
/** `POST /api/admin/reports/:id/dismiss` and `/suspend`: 200 with the updated report. */

/**
 * `GET /api/admin/suspensions` (admins only; everyone else 404): suspended accounts, most recently suspended first.
 * `DELETE /api/admin/suspensions/:userId` lifts one (204; 404 when that person is not suspended).
 */
export const suspendedAccountSchema = z.object({ user: person, suspended_at: z.string() });
export type SuspendedAccount = z.infer<typeof suspendedAccountSchema>;

export const MODERATION_TEXT = {
  reportSent: 'Report sent. Thank you for helping keep RuralRoute safe.',
  blocked: 'Blocked',
  unblocked: 'Unblocked',
  reportDismissed: 'Report dismissed',
  accountSuspended: 'Account suspended',
  suspensionLifted: 'Suspension lifted',
  noSuspended: 'No suspended accounts.',
  noReports: 'No open reports.',
  noBlocked: "You haven't blocked anyone.",
} as const;

export const MODERATION_ERRORS = {
  account_suspended: { title: 'Error', message: 'This account is suspended. Contact support.' },
  report_already_resolved: { title: 'Error', message: 'This report has already been resolved. Reload the list.' },
} as const;

import { z } from 'zod';
import { CONTACT_LIMITS } from './contact';
import { PAID_PLANS } from './plans';
import { NUL_MESSAGE, noNul } from './text';

/**
 * The support inbox (issue 38): the contact form's messages for admins at /dashboard/admin/support, Plus and
 * Community members' first and marked, each answered once by e-mail ('Reply'). Its own module, not contact.ts: the
 * public contact page's chunk never carries the admins' words and schemas.
 */

/** 'Open' (not answered yet) and 'Answered': the inbox's two tabs, and the list's `status` filter. */
export const SUPPORT_STATUSES = ['open', 'answered'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** `GET /api/admin/support?status=`: open ones members with a plan first, then oldest first; answered ones newest first. */
export const supportQuerySchema = z.object({
  status: z.enum(SUPPORT_STATUSES, { error: "Status must be 'open' or 'answered'" }).default('open'),
});

const person = z.object({ id: z.string().uuid(), full_name: z.string() });

/** One message in the inbox, with its answer once answered. */
export const supportMessageSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  created_at: z.string(),
  /** The signed-in member who sent it; null for a visitor (or an account deleted since). */
  user_id: z.string().uuid().nullable(),
  /** The sender's paid plan when they sent it: first in the inbox and marked. */
  plan: z.enum(PAID_PLANS).nullable(),
  /** 'Answered': the answer mailed to the sender, who sent it (null once that account is gone) and when. */
  reply: z.string().nullable(),
  replied_by: person.nullable(),
  replied_at: z.string().nullable(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

/** `POST /api/admin/support/:id/reply` {reply}: the answer, mailed to the sender. */
export const supportReplySchema = z.object({
  reply: z
    .string({ error: 'Your answer is required' })
    .trim()
    .min(1, 'Your answer is required')
    .max(CONTACT_LIMITS.messageMax, `Your answer must be less than ${CONTACT_LIMITS.messageMax} characters`)
    .refine(noNul, NUL_MESSAGE),
});
export type SupportReplyInput = z.input<typeof supportReplySchema>;
export type SupportReply = z.output<typeof supportReplySchema>;

export const SUPPORT_MESSAGE_NOT_FOUND = 'Message not found.';
/** 409 `already_replied`: another admin (or another tab) answered it first. */
export const SUPPORT_ALREADY_ANSWERED = 'This message has already been answered.';
export const SUPPORT_REPLY_SENT_TOAST = 'Reply sent';

/** The page's words (the page, its test and the e2e read them here). */
export const SUPPORT_TEXT = {
  title: 'Support',
  description: 'Messages sent through the contact form. Plus and Community members’ messages come first.',
  open: 'Open',
  answered: 'Answered',
  reply: 'Reply',
  answerLabel: 'Your answer',
  send: 'Send reply',
  sending: 'Sending...',
  emptyOpen: 'No messages waiting for an answer.',
  emptyAnswered: 'No answered messages yet.',
} as const;

/** The mail's subject: 'Re: ' and the message's subject on one line. */
export const supportReplySubject = (subject: string) => `Re: ${subject.replace(/\s+/g, ' ').trim()}`;

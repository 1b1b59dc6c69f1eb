import { z } from 'zod';
import { LIMITS } from './limits';
import { NUL_MESSAGE, noNul } from './text';

/** Limits of the contact form: one source for the form, the route and the table's CHECK constraints. */
export const CONTACT_LIMITS = {
  nameMax: LIMITS.fullNameMax,
  emailMax: LIMITS.emailMax,
  subjectMax: LIMITS.titleMax,
  messageMax: 5000,
} as const;

/**
 * The contact form's contract (browser and server). Key order is the order fields appear, so the first issue
 * reported is the first field the visitor has to fix.
 */
export const contactMessageSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(CONTACT_LIMITS.nameMax, `Name must be less than ${CONTACT_LIMITS.nameMax} characters`)
    .refine(noNul, NUL_MESSAGE),
  email: z
    .string({ error: 'Invalid email address' })
    .trim()
    .email('Invalid email address')
    .max(CONTACT_LIMITS.emailMax, `Email must be less than ${CONTACT_LIMITS.emailMax} characters`),
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(CONTACT_LIMITS.subjectMax, `Subject must be less than ${CONTACT_LIMITS.subjectMax} characters`)
    .refine(noNul, NUL_MESSAGE),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(CONTACT_LIMITS.messageMax, `Message must be less than ${CONTACT_LIMITS.messageMax} characters`)
    .refine(noNul, NUL_MESSAGE),
});
export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;

export const contactReceiptSchema = z.object({ id: z.string().uuid(), created_at: z.string() });
export type ContactReceipt = z.infer<typeof contactReceiptSchema>;

/** Spec-style toast texts for the form. */
export const CONTACT_TOASTS = {
  successTitle: 'Message sent!',
  successDescription: "Thanks for getting in touch. We'll reply by e-mail as soon as we can.",
} as const;

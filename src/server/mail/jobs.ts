import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client';
import { enqueue, type JobHandler } from '../jobs';
import type { Mail, Mailer } from './mailer';

/** The job kind of one e-mail; its payload is a Mail. */
export const EMAIL_JOB = 'email';

const mailSchema = z.object({
  to: z.string().min(3),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
  link: z.string(),
  unsubscribeUrl: z.string().optional(),
  replyTo: z.string().optional(),
  messageId: z.string().min(1),
});

/**
 * Queues one e-mail inside the caller's transaction. Its Message-ID is chosen now and stored with the job, so
 * every attempt (a retry, or a second send after a crash mid-send) carries the same one.
 */
export function enqueueMail(
  tx: Db,
  mail: Omit<Mail, 'messageId'> & { messageId?: string },
  opts: { dedupeKey?: string; runAt?: Date } = {},
): Promise<number | null> {
  const payload: Mail = { ...mail, messageId: mail.messageId ?? `rr-${randomUUID()}` };
  return enqueue(tx, { kind: EMAIL_JOB, payload, ...opts });
}

/** The handler of EMAIL_JOB: sends the payload as it is. */
export function emailJobHandler(mailer: Mailer): JobHandler {
  return async (payload) => {
    await mailer.send(mailSchema.parse(payload));
  };
}

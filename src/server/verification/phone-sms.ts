import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import { PHONE_CODE_TRIES, phoneCodeSms } from '../../shared/verification';
import type { Db } from '../db/client';
import { phoneVerifications } from '../db/schema';
import type { JobHandler } from '../jobs';
import type { SmsSender } from '../sms';
import { hashPhoneCode, lockPhoneOwner, newPhoneCode, PHONE_CODE_MS } from './phone-service';

const payloadSchema = z.object({ verification_id: z.string().uuid() });

/**
 * The handler of PHONE_CODE_JOB (phone-service.ts). Under the user's row lock, a request still waiting (not
 * replaced, removed, used or expired) gets a new code: its hash is stored and its PHONE_CODE_MINUTES start now,
 * when it is sent. Then the SMS goes out; a refusal throws and the job is retried with backoff, each attempt with a
 * fresh code (only the last one sent works). The SMS id is the job's, so a retry rewrites its .txt file.
 */
export function phoneCodeSmsHandler(db: Db, sms: SmsSender, opts: { clock: () => Date }): JobHandler {
  return async (payload, job) => {
    const { verification_id: id } = payloadSchema.parse(payload);
    const code = newPhoneCode();
    const to = await db.transaction(async (tx) => {
      const now = opts.clock();
      const [row] = await tx
        .select({ userId: phoneVerifications.userId })
        .from(phoneVerifications)
        .where(eq(phoneVerifications.id, id));
      if (!row || !(await lockPhoneOwner(tx, row.userId))) return null;
      // Read again after the lock: a new request, a removal or a confirmation may have committed meanwhile.
      const [pending] = await tx
        .update(phoneVerifications)
        .set({ codeHash: hashPhoneCode(id, code), expiresAt: new Date(now.getTime() + PHONE_CODE_MS) })
        .where(
          and(
            eq(phoneVerifications.id, id),
            isNull(phoneVerifications.usedAt),
            gt(phoneVerifications.expiresAt, now),
            lt(phoneVerifications.tries, PHONE_CODE_TRIES),
          ),
        )
        .returning({ phone: phoneVerifications.phone });
      return pending?.phone ?? null;
    });
    if (!to) return;
    await sms.send({ to, body: phoneCodeSms(code), id: `rr-phone-${job.id}` });
  };
}

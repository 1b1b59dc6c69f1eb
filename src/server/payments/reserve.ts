import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ReserveFundInput } from '../../shared/payments';
import { reserveFundSchema } from '../../shared/payments';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { jobs, moderationActions } from '../db/schema';
import { balances, post } from './ledger';

/** The job that pays an approved Delivery Guarantee claim waiting for funds (disputes/claims.ts handles it). */
export const GUARANTEE_CLAIM_JOB = 'guarantee_claim';

/**
 * 'Add to the reserve' (admins, the payments page; issue 36): the platform puts its own money into the Delivery
 * Guarantee's reserve, besides the 25% of every fee. One ledger posting (outside -> reserve) and its moderation_actions
 * row (who, how much, the note) in one transaction; claims waiting for funds are tried again at once.
 */
export function createReserve(db: Db) {
  async function fund(adminId: string, input: Partial<ReserveFundInput>): Promise<{ guarantee_reserve_cents: number }> {
    const parsed = reserveFundSchema.safeParse(input);
    if (!parsed.success) throw new DomainError('validation_error', parsed.error.issues[0]!.message);
    const { amount, note } = parsed.data;
    await db.transaction(async (tx) => {
      const key = `reserve_funding:${randomUUID()}`;
      await post(tx, {
        kind: 'reserve_funding',
        key,
        lines: [
          { account: 'outside', amount: -amount },
          { account: 'guarantee_reserve', amount },
        ],
      });
      await tx.insert(moderationActions).values({ adminId, action: 'reserve_fund', amountCents: amount, note });
      // Claims waiting for funds: their next try is now rather than in up to 10 minutes.
      await tx
        .update(jobs)
        .set({ runAt: sql`clock_timestamp()` })
        .where(sql`${jobs.kind} = ${GUARANTEE_CLAIM_JOB} and ${jobs.status} = 'queued'`);
    });
    const [reserve] = await balances(db, ['guarantee_reserve']);
    return { guarantee_reserve_cents: reserve ?? 0 };
  }
  return { fund };
}

export type Reserve = ReturnType<typeof createReserve>;

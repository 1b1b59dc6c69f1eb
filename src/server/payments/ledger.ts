import { inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { rowsOf } from '../db/result-rows';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { ledgerAccounts, LEDGER_TRANSACTION_KINDS, UNGUARDED_ACCOUNT_KINDS } from '../db/schema';

/**
 * The double-entry ledger (decision 029, docs/payments.md). Every money move is one `post`: a ledger transaction
 * whose entries sum to zero, written inside the caller's database transaction (the booking move that causes it).
 * The database enforces the rules itself (migration 0023): entries move balances in their own statement, a guarded
 * account can never go below zero, a transaction's entries sum to zero at commit, and nothing is ever rewritten.
 */

export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];

/** An account, by what it is for. The platform's accounts are single; held money and earnings are per owner. */
export type AccountRef =
  | 'outside'
  | 'fees'
  | 'guarantee_reserve'
  | 'refunds_pending'
  | 'payouts_pending'
  /** What card disputes cost the platform (negative by the loss): the one platform account besides 'outside' that may be. */
  | 'chargeback_losses'
  /** What members paid for plans (issue 38). */
  | 'plan_revenue'
  /** What Community rewards cost the platform (negative by the credits given). */
  | 'rewards'
  | { held: string /* payment id */ }
  | { driver: string /* user id */ }
  /** RuralRoute credit (an approved guarantee claim beyond what was paid), spent before the card. */
  | { credit: string /* user id */ }
  /** One shard of the guarantee's reserve by number: a claim takes from the shards it locked, in id order. */
  | { reserveShard: number };

export interface Line {
  account: AccountRef;
  /** Cents; positive adds to the account, negative takes from it. */
  amount: number;
}

export interface Posting {
  kind: LedgerTransactionKind;
  /** Derived from the payment and the move: posting the same key twice posts once. */
  key: string;
  paymentId?: string;
  bookingId?: string;
  lines: Line[];
}

/** A ledger rule broken by the code (a guarded balance would go negative): a defect, never the user's input. */
export class LedgerError extends Error {
  override name = 'LedgerError';
}

/**
 * The platform's busiest accounts are split into shards: every hold moves 'outside' and every release 'fees' and
 * 'guarantee_reserve', and one row for each would be locked by every payment from its move to its commit, making all
 * payments wait in one line (measured: choose with payment served 43 of 100 req/s offered, its queries waiting on that
 * row). A move uses the shard of its payment (or key); each shard is a row of the same kind, so totals are sums by
 * kind, and a guarded shard ('fees', 'guarantee_reserve') is guarded on its own.
 */
export const LEDGER_SHARDS = 64;
const SHARDED = new Set<AccountRef>(['outside', 'fees', 'guarantee_reserve']);

/** A stable shard for a posting (FNV-1a of its payment id, or its key). */
export function shardOf(posting: Pick<Posting, 'paymentId' | 'key'>): number {
  const text = posting.paymentId ?? posting.key;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % LEDGER_SHARDS;
}

/** The account's key; a sharded one's with its shard ('outside:3'), or its logical key without one. */
export function accountKey(ref: AccountRef, shard?: number): string {
  if (typeof ref === 'string') return shard !== undefined && SHARDED.has(ref) ? `${ref}:${shard}` : ref;
  if ('held' in ref) return `held:${ref.held}`;
  if ('driver' in ref) return `driver:${ref.driver}`;
  if ('credit' in ref) return `credit:${ref.credit}`;
  return `guarantee_reserve:${ref.reserveShard}`;
}

/** The columns of a new account's row besides its key: every one given, for the VALUES list of `post`. */
function accountRow(ref: AccountRef): {
  kind: string;
  userId: string | null;
  paymentId: string | null;
  allowNegative: boolean;
} {
  if (typeof ref === 'string')
    return {
      kind: ref,
      userId: null,
      paymentId: null,
      allowNegative: (UNGUARDED_ACCOUNT_KINDS as readonly string[]).includes(ref),
    };
  if ('held' in ref) return { kind: 'held', userId: null, paymentId: ref.held, allowNegative: false };
  if ('driver' in ref) return { kind: 'driver', userId: ref.driver, paymentId: null, allowNegative: false };
  if ('credit' in ref) return { kind: 'credit', userId: ref.credit, paymentId: null, allowNegative: false };
  return { kind: 'guarantee_reserve', userId: null, paymentId: null, allowNegative: false };
}

/** A posting as the database function rr_ledger_post takes it (migration 0042): what a move function passes on. */
export interface LedgerPostingArg {
  kind: LedgerTransactionKind;
  key: string;
  payment_id: string | null;
  booking_id: string | null;
  lines: {
    key: string;
    kind: string;
    user_id: string | null;
    payment_id: string | null;
    allow_negative: boolean;
    amount: number;
  }[];
}

/**
 * A posting checked and laid out for the database: its lines summed per account (a sharded account's shard chosen by
 * the payment or key), lines of zero dropped. Throws LedgerError when it does not balance, moves nothing or is not
 * in whole cents: the database enforces the same rules, this says which posting broke them.
 */
export function ledgerPosting(posting: Posting): LedgerPostingArg {
  const byKey = new Map<string, { ref: AccountRef; amount: number }>();
  const shard = shardOf(posting);
  for (const line of posting.lines) {
    if (!Number.isSafeInteger(line.amount)) throw new LedgerError(`not a whole number of cents: ${line.amount}`);
    const key = accountKey(line.account, shard);
    const prev = byKey.get(key);
    byKey.set(key, { ref: line.account, amount: (prev?.amount ?? 0) + line.amount });
  }
  const lines = [...byKey.entries()].filter(([, l]) => l.amount !== 0);
  const total = lines.reduce((s, [, l]) => s + l.amount, 0);
  if (total !== 0) throw new LedgerError(`posting ${posting.key} is unbalanced by ${total}`);
  if (!lines.length) throw new LedgerError(`posting ${posting.key} moves nothing`);
  return {
    kind: posting.kind,
    key: posting.key,
    payment_id: posting.paymentId ?? null,
    booking_id: posting.bookingId ?? null,
    lines: lines.map(([key, l]) => {
      const row = accountRow(l.ref);
      return {
        key,
        kind: row.kind,
        user_id: row.userId,
        payment_id: row.paymentId,
        allow_negative: row.allowNegative,
        amount: l.amount,
      };
    }),
  };
}

/** The ledger's posting, prepared once per connection: the function rr_ledger_post (migration 0042). */
const postStatement = preparedStatement(
  'ledger_post',
  () => sql`select rr_ledger_post(${sql.placeholder('posting')}::jsonb) as posted`,
);

/**
 * Posts one money move inside `tx`, in one statement (the database function rr_ledger_post, migration 0042: the
 * transaction under its key, the accounts it opens, the entries in account-id order). Returns false when a move with
 * the same key was already posted (nothing is written again). Throws LedgerError when a guarded account would go
 * below zero; the caller's transaction then rolls back whole.
 */
export async function post(tx: Db, posting: Posting): Promise<boolean> {
  const arg = JSON.stringify(ledgerPosting(posting));
  const [row] = await guarded(posting.key, async () =>
    rowsOf<{ posted: boolean }>(await postStatement(tx, { posting: arg })),
  );
  return row?.posted === true;
}

/** Runs a statement that posts: a guarded account going below zero becomes a LedgerError. */
export async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (guardViolated(err)) throw new LedgerError(`posting ${what} would take a guarded account below zero`);
    throw err;
  }
}

function guardViolated(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    if ((e as { constraint?: unknown }).constraint === 'ledger_accounts_guarded') return true;
    if (String((e as { message?: unknown }).message).includes('ledger_accounts_guarded')) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The balances of the given accounts (0 for one never used); a sharded account's is the sum of its shards. */
export async function balances(db: Db, refs: AccountRef[]): Promise<number[]> {
  const keys = refs.map((ref) => accountKey(ref));
  const kinds = refs.filter((ref) => SHARDED.has(ref)) as string[];
  const rows = await db
    .select({ key: ledgerAccounts.key, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      kinds.length
        ? or(inArray(ledgerAccounts.key, keys), inArray(ledgerAccounts.kind, kinds))
        : inArray(ledgerAccounts.key, keys),
    );
  const byKey = new Map<string, number>();
  for (const r of rows) {
    const key = SHARDED.has(r.kind as AccountRef) ? r.kind : r.key;
    byKey.set(key, (byKey.get(key) ?? 0) + Number(r.balance));
  }
  return keys.map((k) => byKey.get(k) ?? 0);
}

/** A person's RuralRoute credit (0 without any): what pays their next deliveries before the card. */
export async function creditBalance(db: Db, userId: string): Promise<number> {
  const [balance] = await balances(db, [{ credit: userId }]);
  return balance ?? 0;
}

/**
 * A person's RuralRoute credit as a SQL expression over a user id (0 without any), to read with another query: the
 * account's key as accountKey({ credit }) makes it.
 */
export const creditBalanceSql = (userId: SQL.Aliased | SQL | AnyColumn) =>
  sql<string>`coalesce((select a.balance from ${ledgerAccounts} a where a.key = 'credit:' || ${userId}), 0)`;

/** The sum of every balance: zero whenever the ledger is whole. */
export async function ledgerTotal(db: Db): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)` })
    .from(ledgerAccounts);
  return Number(row?.total ?? 0);
}

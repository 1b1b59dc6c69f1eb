import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { sqlState } from '../db/errors';
import { rowsOf } from '../db/result-rows';
import { createTestDatabase } from '../test/database';
import {
  accountKey,
  balances,
  LEDGER_SHARDS,
  LedgerError,
  ledgerTotal,
  post,
  type AccountRef,
  type Posting,
} from './ledger';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string }>(await db.execute(query))[0]!.n);

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('did not fail');
}

const hold = (payment: string, amount: number, key = `hold:${payment}`): Posting => ({
  kind: 'hold',
  key,
  paymentId: payment,
  lines: [
    { account: 'outside', amount: -amount },
    { account: { held: payment }, amount },
  ],
});

describe('the ledger', () => {
  it('posts a balanced move once, however often it is posted', async () => {
    const p = randomUUID();
    expect(await db.transaction((tx) => post(tx, hold(p, 1550)))).toBe(true);
    expect(await db.transaction((tx) => post(tx, hold(p, 1550)))).toBe(false);
    expect(await balances(db, [{ held: p }])).toEqual([1550]);
    expect(await ledgerTotal(db)).toBe(0);
  });

  it("spreads the platform's busiest account over shards: payments do not all wait on one row", async () => {
    const before = await balances(db, ['outside']);
    const payments = Array.from({ length: 200 }, () => randomUUID());
    await Promise.all(payments.map((p) => db.transaction((tx) => post(tx, hold(p, 100)))));
    const shards = await count(
      sql`select count(distinct a.key) as n from ledger_entries e join ledger_accounts a on a.id = e.account_id
          join ledger_transactions t on t.id = e.transaction_id
          where a.kind = 'outside' and t.payment_id in (${sql.join(
            payments.map((p) => sql`${p}::uuid`),
            sql`, `,
          )})`,
    );
    expect(shards).toBeGreaterThan(LEDGER_SHARDS / 2);
    // The logical account is the sum of its shards.
    expect(await balances(db, ['outside'])).toEqual([before[0]! - 200 * 100]);
    expect(await ledgerTotal(db)).toBe(0);
  });

  it('refuses a move that would take a guarded account below zero, and writes nothing of it', async () => {
    const p = randomUUID();
    const driver = randomUUID();
    await db.transaction((tx) => post(tx, hold(p, 1000)));
    const err = await failure(() =>
      db.transaction((tx) =>
        post(tx, {
          kind: 'release',
          key: `release:${p}`,
          lines: [
            { account: { held: p }, amount: -1001 },
            { account: { driver }, amount: 1001 },
          ],
        }),
      ),
    );
    expect(err).toBeInstanceOf(LedgerError);
    expect(await balances(db, [{ held: p }, { driver }])).toEqual([1000, 0]);
    expect(
      await count(sql`select count(*)::text as n from ledger_transactions where idempotency_key = ${`release:${p}`}`),
    ).toBe(0);
  });

  it('refuses an unbalanced transaction at commit, whoever writes it', async () => {
    const err = await failure(() =>
      db.transaction(async (tx) => {
        const [t] = rowsOf<{ id: number }>(
          await tx.execute(
            sql`insert into ledger_transactions (kind, idempotency_key) values ('hold', ${randomUUID()}) returning id`,
          ),
        );
        await tx.execute(
          sql`insert into ledger_entries (transaction_id, account_id, amount)
              select ${t!.id}, id, 500 from ledger_accounts where key = 'fees'`,
        );
      }),
    );
    expect(sqlState(err)).toBe('RRL01');
  });

  it('never rewrites history: entries and transactions cannot change or go, balances move only by entries', async () => {
    await db.transaction((tx) => post(tx, hold(randomUUID(), 700)));
    for (const statement of [
      sql`update ledger_entries set amount = amount * 2`,
      sql`delete from ledger_entries`,
      sql`update ledger_transactions set kind = 'refund'`,
      sql`delete from ledger_transactions`,
      sql`update ledger_accounts set balance = balance + 1 where key = 'fees'`,
    ])
      expect(sqlState(await failure(() => db.execute(statement)))).toBe('RRL02');
    expect(await ledgerTotal(db)).toBe(0);
  });
});

/** One random money move over a few payments and drivers, as the payments code makes them. */
type Move =
  | { kind: 'hold'; payment: number; amount: number }
  | { kind: 'release'; payment: number; driver: number; amount: number; fee: number }
  | { kind: 'refund'; payment: number; amount: number }
  | { kind: 'refund_sent'; amount: number }
  | { kind: 'payout'; driver: number; amount: number }
  | { kind: 'payout_sent'; amount: number }
  | { kind: 'repeat'; back: number };

const amount = fc.integer({ min: 1, max: 5000 });
const payment = fc.integer({ min: 0, max: 19 });
const driverIx = fc.integer({ min: 0, max: 4 });
const move: fc.Arbitrary<Move> = fc.oneof(
  fc.record({ kind: fc.constant('hold' as const), payment, amount }),
  fc.record({
    kind: fc.constant('release' as const),
    payment,
    driver: driverIx,
    amount,
    fee: fc.integer({ min: 0, max: 500 }),
  }),
  fc.record({ kind: fc.constant('refund' as const), payment, amount }),
  fc.record({ kind: fc.constant('refund_sent' as const), amount }),
  fc.record({ kind: fc.constant('payout' as const), driver: driverIx, amount }),
  fc.record({ kind: fc.constant('payout_sent' as const), amount }),
  fc.record({ kind: fc.constant('repeat' as const), back: fc.integer({ min: 1, max: 50 }) }),
);

/**
 * 10,000 moves on real PostgreSQL (CI's database step, DATABASE_URL set); 2,500 on PGlite, whose WebAssembly
 * PostgreSQL runs the ledger's triggers about ten times slower (the same property, a shorter run).
 */
const MOVES = process.env.DATABASE_URL ? 10_000 : 2_500;

describe(`the ledger under ${MOVES.toLocaleString('en-US')} random moves`, () => {
  it('keeps every transaction balanced, no guarded account below zero, and the sum of all balances at zero', async () => {
    const payments = Array.from({ length: 20 }, () => randomUUID());
    const drivers = Array.from({ length: 5 }, () => randomUUID());

    const lines = (m: Exclude<Move, { kind: 'repeat' }>): AccountRef[] & { amounts: number[] } => {
      const out = (refs: AccountRef[], amounts: number[]) => Object.assign(refs, { amounts });
      switch (m.kind) {
        case 'hold':
          return out(['outside', { held: payments[m.payment]! }], [-m.amount, m.amount]);
        case 'release':
          return out(
            [{ held: payments[m.payment]! }, { driver: drivers[m.driver]! }, 'fees'],
            [-(m.amount + m.fee), m.amount, m.fee],
          );
        case 'refund':
          return out([{ held: payments[m.payment]! }, 'refunds_pending'], [-m.amount, m.amount]);
        case 'refund_sent':
          return out(['refunds_pending', 'outside'], [-m.amount, m.amount]);
        case 'payout':
          return out([{ driver: drivers[m.driver]! }, 'payouts_pending'], [-m.amount, m.amount]);
        case 'payout_sent':
          return out(['payouts_pending', 'outside'], [-m.amount, m.amount]);
      }
    };

    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: MOVES, maxLength: MOVES }), async (moves) => {
        const run = randomUUID();
        // The model: what each account should hold, and which postings went through.
        const model = new Map<string, number>();
        const posted: Posting[] = [];
        const before = new Map<string, number>();
        for (const key of ['fees', 'refunds_pending', 'payouts_pending'] as const)
          before.set(key, (await balances(db, [key]))[0]!);
        const modelBalance = (ref: AccountRef) =>
          (model.get(accountKey(ref)) ?? 0) + (before.get(accountKey(ref)) ?? 0);
        let refused = 0;
        // Moves the model allows go in batches of up to 100 per database transaction (a commit each would make this
        // test wait on the disk); each refused one is tried in a transaction of its own, which it must roll back.
        let batch: { posting: Posting; fresh: boolean }[] = [];
        const flush = async () => {
          if (!batch.length) return;
          const run = batch;
          batch = [];
          const results = await db.transaction(async (tx) => {
            const out: boolean[] = [];
            for (const b of run) out.push(await post(tx, b.posting));
            return out;
          });
          expect(results).toEqual(run.map((b) => b.fresh));
        };
        for (let i = 0; i < moves.length; i++) {
          const m = moves[i]!;
          if (m.kind === 'repeat') {
            const again = posted[posted.length - m.back];
            if (again) batch.push({ posting: again, fresh: false });
          } else {
            const refs = lines(m);
            const posting: Posting = {
              kind: m.kind,
              key: `${run}:${i}`,
              lines: refs.map((account, j) => ({ account, amount: refs.amounts[j]! })),
            };
            const allowed = refs.every((ref, j) => ref === 'outside' || modelBalance(ref) + refs.amounts[j]! >= 0);
            if (allowed) {
              batch.push({ posting, fresh: true });
              refs.forEach((ref, j) =>
                model.set(accountKey(ref), (model.get(accountKey(ref)) ?? 0) + refs.amounts[j]!),
              );
              posted.push(posting);
            } else {
              await flush();
              expect(await failure(() => db.transaction((tx) => post(tx, posting)))).toBeInstanceOf(LedgerError);
              refused++;
            }
          }
          if (batch.length >= 100) await flush();
        }
        await flush();
        // Both outcomes happened: the run proves refusals as well as postings.
        expect(posted.length).toBeGreaterThan(MOVES / 10);
        expect(refused).toBeGreaterThan(MOVES / 100);
        const unbalanced = sql`select count(*)::text as n from (
          select transaction_id from ledger_entries group by transaction_id having sum(amount) <> 0) t`;
        expect(await count(unbalanced)).toBe(0);
        expect(
          await count(sql`select count(*)::text as n from ledger_accounts where not allow_negative and balance < 0`),
        ).toBe(0);
        // Every balance is exactly the sum of its entries.
        const drift = sql`select count(*)::text as n from ledger_accounts a
          where a.balance <> (select coalesce(sum(amount), 0) from ledger_entries e where e.account_id = a.id)`;
        expect(await count(drift)).toBe(0);
        expect(await ledgerTotal(db)).toBe(0);
        const refs: AccountRef[] = [...payments.map((p) => ({ held: p })), ...drivers.map((d) => ({ driver: d }))];
        expect(await balances(db, refs)).toEqual(refs.map((r) => modelBalance(r)));
      }),
      // One run of MOVES moves; shrinking a failure against a database would take longer than reading it.
      { numRuns: 1, endOnFailure: true },
    );
  }, 120_000);
});

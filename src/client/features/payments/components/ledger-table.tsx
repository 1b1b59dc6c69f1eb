import { formatCents } from '@shared/money';
import type { LedgerTrail } from '@shared/payments';
import { formatInstant } from '@/lib/format';

/** A payment's ledger trail: each move (when, what) with its entries (account, amount), oldest first. */
export function LedgerTable({ trail, caption = 'Ledger trail' }: { trail: LedgerTrail; caption?: string }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b">
          <th scope="col" className="py-1 pr-3">
            When
          </th>
          <th scope="col" className="py-1 pr-3">
            Move
          </th>
          <th scope="col" className="py-1 pr-3">
            Account
          </th>
          <th scope="col" className="py-1 text-right">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {trail.transactions.flatMap((t) =>
          t.entries.map((e, i) => (
            <tr key={`${t.id}-${e.account}`} className="border-b last:border-0">
              <td className="py-1 pr-3">{i === 0 ? formatInstant(t.at) : ''}</td>
              <td className="py-1 pr-3">{i === 0 ? t.kind : ''}</td>
              <td className="break-all py-1 pr-3 font-mono">{e.account}</td>
              <td className="py-1 text-right tabular-nums">{formatCents(e.amount_cents)}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

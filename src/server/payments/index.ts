// Payments (issue 35): the double-entry ledger every money move goes through. The payment flow (hold on choose,
// release on completion, refunds on cancellation), its providers and routes build on it.
export { accountKey, balances, LedgerError, ledgerTotal, post } from './ledger';
export type { AccountRef, LedgerTransactionKind, Line, Posting } from './ledger';

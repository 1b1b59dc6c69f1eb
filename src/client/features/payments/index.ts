// Payments (issue 35): 'Paid' and 'Earned', receipts, Settings' 'Payouts', and the admins' payments page.
export { PaymentsPage } from './components/payments-page';
export { ReceiptPage } from './components/receipt-page';
export { PayoutsSection } from './components/payouts-section';
export { AdminPaymentsPage } from './components/admin-payments-page';
export { LedgerTable } from './components/ledger-table';

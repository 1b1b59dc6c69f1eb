// Payments (issue 35): the double-entry ledger every money move goes through, the payment flow of a booking (hold
// on choose, release on completion, refunds on cancellation) and its providers.
export {
  accountKey,
  balances,
  creditBalance,
  creditBalanceSql,
  guarded,
  LedgerError,
  ledgerPosting,
  ledgerTotal,
  post,
} from './ledger';
export type { AccountRef, LedgerTransactionKind, Line, Posting } from './ledger';
export {
  cardRefundCents,
  chargeKey,
  CHOICE_COLUMNS,
  CREDIT_CHANGED_MESSAGE,
  createPaymentFlow,
  HELD_COLUMNS,
  HELD_JOIN,
  releaseOf,
  PAYMENT_REFUND_JOB,
  PAYMENT_VOID_JOB,
  refundHeld,
  refundOnCancel,
  type Charged,
  type PaymentFlow,
} from './flow';
export { createTestProvider } from './test-provider';
export { createReserve, GUARANTEE_CLAIM_JOB, type Reserve } from './reserve';
export { applyChargebackEvent, chargebackShown, CHARGEBACK_EVENT_TYPES } from './chargebacks';
export { createPayouts, enqueuePayoutRunIfActive, PAYOUT_RUN_JOB, PAYOUT_SEND_JOB, type Payouts } from './payouts';
export { createPaymentReader, type PaymentReader } from './reader';
export { createReconciliation, RECONCILE_JOB, type PaymentReconciliation } from './reconcile';
export { adminPaymentRoutes, paymentRoutes } from './routes';
export { createPaymentServices } from './services';
export { createStripeClient, createStripeProvider } from './stripe-provider';
export {
  createStripeEventReceiver,
  PAYMENT_WEBHOOK_JOB,
  paymentWebhookHandler,
  STRIPE_WEBHOOK_PATH,
  type StripeEventReceiver,
} from './stripe-webhooks';
export { stripeWebhookRoutes } from './webhook-routes';
export type { PaymentSource, PaymentsProvider } from './provider';

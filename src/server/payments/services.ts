import type { Db } from '../db/client';
import { createChargebacks } from './chargebacks';
import { createPaymentFlow } from './flow';
import { createPayouts } from './payouts';
import type { PaymentsProvider } from './provider';
import { createPaymentReader } from './reader';
import { createReconciliation } from './reconcile';
import { createReserve } from './reserve';

/** Everything payments are made of, on one provider: the booking's money, payouts, what people read, reconciling. */
export function createPaymentServices(db: Db, provider: PaymentsProvider, appUrl: string) {
  const payments = createPaymentFlow(db, provider);
  return {
    payments,
    payouts: createPayouts(db, provider, appUrl),
    paymentReader: createPaymentReader(db, !provider.live),
    reconciliation: createReconciliation(db, provider, payments),
    chargebacks: createChargebacks(db),
    reserve: createReserve(db),
  };
}

// Paid plans (issue 38): Plus and Community, their charges and renewals, and the one place benefits read the plan.
export {
  ambassadorFor,
  ambassadorOf,
  feeWaiverFor,
  feeWaiverOf,
  guaranteeCapFor,
  guaranteeCapOf,
  isPaid,
  planFrom,
  planOf,
} from './plan-of';
export { createPlans, type Plans } from './service';
export { rewardOnCompletion } from './rewards';
export { planRoutes } from './routes';
export { createStripeBilling, type StripeBilling } from './stripe-billing';
// Community's early access ('Try new features first', decision 035).
export { createEarlyAccess, earlyAccessOn, type EarlyAccess } from './early-access';
export { earlyAccessRoutes } from './early-access-routes';

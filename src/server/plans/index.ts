// Paid plans (issue 38): Plus and Community, their charges and renewals, and the one place benefits read the plan.
export { isPaid, planOf } from './plan-of';

// Paid plans (issue 38): Plus and Community, their charges and renewals, and the one place benefits read the plan.
export { isPaid, planFrom, planOf } from './plan-of';

// Paid plans (issue 38): Settings > Plan, and the failed renewal's banner.
export { PlanPage } from './components/plan-page';
export { PlanSection } from './components/plan-section';
export { PlanPayments } from './components/plan-payments';

import { PlanPage } from '@/features/plans';

export function Component() {
  return <PlanPage />;
}

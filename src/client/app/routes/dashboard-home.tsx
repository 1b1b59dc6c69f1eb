import { DashboardHome } from '@/features/dashboard/components/dashboard-home';

export function Component() {
  return <DashboardHome />;
}

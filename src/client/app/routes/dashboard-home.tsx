import { DashboardOverview } from '@/features/dashboard/components/dashboard-overview';

export function Component() {
  return <DashboardOverview stats={{ activeRides: 0, openRequests: 0, totalBookings: 0, completed: 0 }} />;
}

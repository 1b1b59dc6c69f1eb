import { PageHeader } from '@/components/page-header';

export function Component() {
  return <PageHeader title="My Bookings" description="This page is coming soon." />;
}

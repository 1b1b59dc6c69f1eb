import { PageHeader } from '@/components/page-header';

export function Component() {
  return <PageHeader title="Browse Available Rides" description="This page is coming soon." />;
}

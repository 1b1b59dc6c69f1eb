import { PageHeader } from '@/components/page-header';

export function Component() {
  return <PageHeader title="Browse Delivery Requests" description="This page is coming soon." />;
}

import { PageHeader } from '@/components/page-header';

export function Component() {
  return <PageHeader title="My Requests" description="This page is coming soon." />;
}

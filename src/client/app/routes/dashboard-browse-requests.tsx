import { BrowseRequests } from '@/features/requests/components/browse-requests';

export function Component() {
  return <BrowseRequests />;
}

import { MyRequests } from '@/features/requests/components/my-requests';

export function Component() {
  return <MyRequests />;
}

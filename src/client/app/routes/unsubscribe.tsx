import { UnsubscribePage } from '@/features/notifications/components/unsubscribe-page';

export function Component() {
  return <UnsubscribePage />;
}

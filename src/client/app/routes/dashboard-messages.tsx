import { ConversationsPage } from '@/features/messages/components/conversations-page';

export function Component() {
  return <ConversationsPage />;
}

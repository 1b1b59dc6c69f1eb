import type { Notification } from '@shared/notifications';
import { uuid } from '@/test/factories';

/** An unread 'offer_received' notification (override any field). */
export function makeNotification(over: Partial<Notification> = {}): Notification {
  const requestId = uuid();
  return {
    id: uuid(),
    type: 'offer_received',
    text: 'Dan Driver offered to carry “Feed sacks”.',
    link: `/dashboard/requests/${requestId}`,
    created_at: '2026-11-25T15:04:00.000Z',
    read_at: null,
    ...over,
  };
}

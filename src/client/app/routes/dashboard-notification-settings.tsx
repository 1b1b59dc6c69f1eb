import { NotificationSettingsPage } from '@/features/notifications/components/notification-settings-page';

export function Component() {
  return <NotificationSettingsPage />;
}

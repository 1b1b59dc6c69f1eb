/** Notifications: the header's bell and the pages the routes show. */
export { NotificationsBell } from './components/notifications-bell';
export { NotificationsPage } from './components/notifications-page';
export { NotificationSettingsPage } from './components/notification-settings-page';
export { UnsubscribePage } from './components/unsubscribe-page';

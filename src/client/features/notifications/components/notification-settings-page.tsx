/** Placeholder (issue 12): replaced by the page itself. */
export function NotificationSettingsPage() {
  return <h1>Notification settings</h1>;
}

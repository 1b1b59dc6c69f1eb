/** Placeholder (issue 12): replaced by the page itself. */
export function NotificationsPage() {
  return <h1>Notifications</h1>;
}

/** Placeholder (issue 12): replaced by the page itself. */
export function UnsubscribePage() {
  return <h1>Unsubscribe</h1>;
}

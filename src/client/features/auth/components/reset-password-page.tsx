/** Placeholder (issue 13): replaced by the page itself. */
export function ResetPasswordPage() {
  return <h1>ResetPasswordPage</h1>;
}

/** Placeholder (issue 13): replaced by the page itself. */
export function ForgotPasswordPage() {
  return <h1>ForgotPasswordPage</h1>;
}

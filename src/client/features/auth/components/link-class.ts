/** A text link on the auth pages: underlined, and a visible ring when reached by keyboard. */
export const linkClass =
  'rounded-sm font-medium text-primary underline underline-offset-4 hover:decoration-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

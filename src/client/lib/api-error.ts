// The API client's failures, in a module of their own: a page can tell them apart (and toast them) without the
// client itself, which comes with the query cache (issue 34: /auth's first scripts).

/** An API failure as the UI sees it: the server's stable code and a message fit to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A request that failed for the line's sake (no network, or no answer in time); the change can be tried again. */
export const NO_CONNECTION_MESSAGE = 'No connection. Please try again.';
/** A change kept on the device to be sent when the signal returns (offline/send-queue.ts): shown as an 'Error' toast. */
export const QUEUED_MESSAGE = "No connection. Your change is saved and will be sent when you're back online.";

/**
 * A change kept in the send queue instead of sent: the mutation's failure, which a form or a dialog treats as done (it
 * closes; 'Waiting to send' lists the change). Here, not in send-queue.ts, so a dialog can tell it without the send queue.
 */
export class QueuedError extends ApiError {
  constructor() {
    super(0, 'queued', QUEUED_MESSAGE);
    this.name = 'QueuedError';
  }
}

export const isQueued = (err: unknown): err is QueuedError => err instanceof ApiError && err.code === 'queued';

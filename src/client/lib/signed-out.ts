import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';

/**
 * The person signed out (Sign Out, account deleted, password reset): everything they loaded and anything they left
 * waiting to send leaves the memory and the device (the next person on this phone sees none of it), then the
 * signed-out state is recorded. The send queue is cleared once its code is in (at once if the page has it: it comes
 * just after the dashboard's first screen), so that the Sign Out button does not bring it onto that screen.
 */
export function forgetSignedInPerson(client: QueryClient) {
  void import('../offline/send-queue').then(({ sendQueue }) => sendQueue.clear());
  client.clear();
  client.setQueryData(queryKeys.session, { user: null, session: null });
}

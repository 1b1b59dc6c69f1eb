import type { QueryClient } from '@tanstack/react-query';
import { sendQueue } from '../offline/send-queue';
import { queryKeys } from './query-keys';

/**
 * The person signed out (Sign Out, account deleted, password reset): everything they loaded and anything they left
 * waiting to send leaves the memory and the device (the next person on this phone sees none of it), then the
 * signed-out state is recorded.
 */
export function forgetSignedInPerson(client: QueryClient) {
  void sendQueue.clear();
  client.clear();
  client.setQueryData(queryKeys.session, { user: null, session: null });
}

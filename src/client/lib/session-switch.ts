import type { QueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '@shared/auth';
import { whenAnsweredAs } from './api-client';
import { queryKeys } from './query-keys';
import { SESSION_CHANNEL } from './session-channel';

/**
 * The person signed in on this browser can change under an open page: they signed out or another person signed in
 * in another tab (the session cookie is the browser's, not the tab's), or the session ended. The page learns it two
 * ways: every API answer says whose session it came from (SIGNED_IN_AS_HEADER), and a tab whose signed-in person
 * changes tells the others (BroadcastChannel). Either way the session is looked up again (an answer from no session
 * at all waits for the next page, see markEnded); once it names someone else, offline/query-persistence.ts drops everything of the previous person from the screen, the memory and the device.
 * Answers a stop function.
 */
export function followSessionSwitches(client: QueryClient): () => void {
  const signedIn = () => client.getQueryData<SessionInfo>(queryKeys.session);
  // After an answer, a look-up already on its way is not cancelled: its own answer says whose session it is, and
  // cancelling it at that moment would start the next one, and so on. After another tab's word it is: that look-up
  // may have been asked before the other tab's sign-in, and would answer the person before (tabs speak only when
  // their person changes, so this starts no chain).
  const lookAgain = (from: 'answer' | 'tab') =>
    void client.invalidateQueries({ queryKey: queryKeys.session, exact: true }, { cancelRefetch: from === 'tab' });

  // An answer from no session (this person's session ended or its cookie is gone) is not someone else: the page
  // stays as it is, so what the person was typing is not lost (the refused write says 'Please sign in to
  // continue.'), and the next page they open looks the session up and leads to sign-in.
  const markEnded = () =>
    void client.invalidateQueries({ queryKey: queryKeys.session, exact: true, refetchType: 'none' });

  /** Someone says who is signed in now: look again unless this page already knows it is them. */
  const heard = (userId: string | null, from: 'answer' | 'tab') => {
    const session = signedIn();
    // Not known yet (the first look-up is on its way): nothing on screen belongs to anyone.
    if (session === undefined || (session.user?.id ?? null) === userId) return;
    if (userId === null && from === 'answer') markEnded();
    else lookAgain(from);
  };
  whenAnsweredAs((userId) => heard(userId, 'answer'));

  // Each tab says whom it has signed in whenever that changes (a page load, a sign-in, a sign-out); a tab that
  // knows someone else looks again.
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SESSION_CHANNEL) : undefined;
  if (channel) channel.onmessage = (event: MessageEvent<string | null>) => heard(event.data, 'tab');
  let owner: string | null | undefined;
  const unsubscribe = client.getQueryCache().subscribe(() => {
    const session = signedIn();
    if (session === undefined) return;
    const user = session.user?.id ?? null;
    if (user === owner) return;
    owner = user;
    channel?.postMessage(user);
  });

  return () => {
    whenAnsweredAs(undefined);
    unsubscribe();
    channel?.close();
  };
}

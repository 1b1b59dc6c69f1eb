import { useRef } from 'react';
import { SIGN_OUT_OTHERS_LABEL, type AccountSession } from '@shared/account';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { SettingsSection } from '@/components/settings-section';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatInstant } from '@/lib/format';
import { useAccountSessions, useSignOutOthers, useSignOutSession } from '../api/account';
import { SectionQuery } from './section-query';

function SessionRow({ session, onSignedOut }: { session: AccountSession; onSignedOut: () => void }) {
  const signOut = useSignOutSession();
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-4">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span className="break-words">{session.browser}</span>
          {session.current ? <Badge tone="green">This device</Badge> : null}
        </p>
        <p className="text-sm text-muted-foreground">Last active {formatInstant(session.last_active_at)}</p>
        <p className="text-sm text-muted-foreground">Signed in {formatInstant(session.signed_in_at)}</p>
      </div>
      {session.current ? null : (
        <Button
          variant="outline"
          aria-label={`Sign out ${session.browser}`}
          disabled={signOut.isPending}
          onClick={() => signOut.mutate(session.id, { onSuccess: onSignedOut })}
        >
          {signOut.isPending ? 'Signing out...' : 'Sign out'}
        </Button>
      )}
    </li>
  );
}

function SessionList({ sessions, onSignedOut }: { sessions: AccountSession[]; onSignedOut: () => void }) {
  const signOutOthers = useSignOutOthers();
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="space-y-4">
      <ul aria-label="Signed-in browsers" className="space-y-3">
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} onSignedOut={onSignedOut} />
        ))}
      </ul>
      {others === 0 ? <p className="text-sm text-muted-foreground">You are not signed in anywhere else.</p> : null}
      <ConfirmActionButton
        variant="outline"
        disabled={others === 0}
        title={`${SIGN_OUT_OTHERS_LABEL}?`}
        description={`${others === 1 ? 'The other browser' : `The ${others} other browsers`} signed in to your account will be signed out. You stay signed in here.`}
        confirmLabel="Sign out"
        busyLabel="Signing out..."
        destructive
        onConfirm={() => signOutOthers.mutateAsync()}
        onDone={onSignedOut}
      >
        {SIGN_OUT_OTHERS_LABEL}
      </ConfirmActionButton>
    </div>
  );
}

/** Settings, 'Sessions': every browser signed in to my account, and a way to sign the others out. */
export function SessionsSection() {
  // A signed-out row leaves the list: focus goes to the section's heading instead of being lost.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = () => headingRef.current?.focus();
  return (
    <SettingsSection
      title="Sessions"
      description="The browsers where you are signed in. Sign out of any you don't recognise."
      headingRef={headingRef}
    >
      <SectionQuery query={useAccountSessions()} what="your sessions">
        {(sessions) => <SessionList sessions={sessions} onSignedOut={focusHeading} />}
      </SectionQuery>
    </SettingsSection>
  );
}

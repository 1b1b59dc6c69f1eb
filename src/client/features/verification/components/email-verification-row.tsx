import { VERIFICATION_LABELS } from '@shared/verification';
import { Button } from '@/components/ui/button';
import { useSession } from '@/features/auth';
import { useResendEmailVerification } from '../api/email';
import { VerificationRow } from './verification-row';

/** 'Email': confirmed by the link mailed at sign-up (or after a change); 'Resend email' mails a new one. */
export function EmailVerificationRow() {
  const session = useSession();
  const resend = useResendEmailVerification();
  const user = session.data?.user;
  if (!user) return null;
  return (
    <VerificationRow
      title="Email"
      done={user.email_verified}
      state={user.email_verified ? VERIFICATION_LABELS.email : `Not confirmed yet: ${user.email}`}
    >
      {user.email_verified ? null : (
        <Button variant="outline" size="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? 'Sending...' : 'Resend email'}
        </Button>
      )}
    </VerificationRow>
  );
}

import { MailWarning } from 'lucide-react';
import { useId } from 'react';
import { EMAIL_BANNER_RESEND, EMAIL_BANNER_TITLE } from '@shared/verification-words';
import { Button } from '@/components/ui/button';
import { useResendEmailVerification } from '../api/email-resend';

/**
 * The dashboard's 'Confirm your email address' banner for an account whose `email` is not confirmed yet (the page
 * shows it only then). Nothing is blocked by it; 'Resend email' mails a new link. Light on purpose: it is part of the
 * dashboard's first screen.
 */
export function EmailBanner({ email }: { email: string }) {
  const resend = useResendEmailVerification();
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mb-4 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <MailWarning aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div>
          <h2 id={headingId} className="font-semibold">
            {EMAIL_BANNER_TITLE}
          </h2>
          <p className="text-sm">
            We sent a link to <span className="font-medium break-all">{email}</span>. Open it to confirm your address.
          </p>
        </div>
      </div>
      {/* The outline button's own background is white: no class of its own for it (no merging on this screen). */}
      <Button variant="outline" className="shrink-0" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {resend.isPending ? 'Sending...' : EMAIL_BANNER_RESEND}
      </Button>
    </section>
  );
}

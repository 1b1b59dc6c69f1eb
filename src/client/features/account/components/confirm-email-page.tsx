import type * as React from 'react';
import { Link, useSearchParams } from '@/lib/router';
import { EMAIL_CHANGED_TOAST, EMAIL_LINK_EXPIRED } from '@shared/account';
import { PAGE_PATHS } from '@shared/routes';
import { Button } from '@/components/ui/button';
import { EmailLinkCard, emailLinkClass, useEmailLink } from '@/components/email-link-page';
import { useSession } from '@/features/auth';
import { ApiError } from '@/lib/api-client';
import { isEmailLinkExpired, useConfirmEmail } from '../api/email';

const ASK_AGAIN = 'Ask for a new one';
const [BEFORE_LINK, AFTER_LINK] = EMAIL_LINK_EXPIRED.split(ASK_AGAIN);
const CHECKING_TITLE = 'Confirm your new email';

/** Where to go next: Settings when this browser is signed in, else the sign-in page (Settings asks for it anyway). */
function NextStep({ signedIn }: { signedIn: boolean }) {
  return signedIn ? (
    <Link to={PAGE_PATHS.settings} className={emailLinkClass}>
      Go to Settings
    </Link>
  ) : (
    <Link to={PAGE_PATHS.auth} className={emailLinkClass}>
      Sign in
    </Link>
  );
}

/**
 * '/confirm-email?token=...', the link of the 'Confirm your new RuralRoute e-mail address' mail. The change is made
 * as soon as the page opens, signed in or not (any browser: the token says whose). An expired, used or unknown link
 * says so, with the way to ask again in Settings.
 */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmail();
  const { mutate } = confirm;
  const session = useSession();
  const signedIn = Boolean(session.data?.user);

  const headingRef = useEmailLink(token, mutate, confirm.isSuccess || confirm.isError);

  let title = CHECKING_TITLE;
  let body: React.ReactNode;
  if (confirm.data) {
    title = EMAIL_CHANGED_TOAST;
    body = (
      <>
        <p>
          Your email address is now <span className="font-medium break-all">{confirm.data.email}</span>. Use it to sign
          in from now on.
        </p>
        <NextStep signedIn={signedIn} />
      </>
    );
  } else if (!token || isEmailLinkExpired(confirm.error)) {
    body = (
      <p>
        {BEFORE_LINK}
        <Link to={PAGE_PATHS.settings} className={emailLinkClass}>
          {ASK_AGAIN}
        </Link>
        {AFTER_LINK}
      </p>
    );
  } else if (confirm.error instanceof ApiError && confirm.error.code === 'email_taken') {
    body = (
      <>
        <p>{confirm.error.message}</p>
        <NextStep signedIn={signedIn} />
      </>
    );
  } else if (confirm.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>
          We couldn&apos;t change your email.
          {confirm.error instanceof ApiError ? ` ${confirm.error.message}` : ''}
        </p>
        <Button variant="outline" onClick={() => mutate(token)}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = <p>Confirming your new email...</p>;
  }

  return (
    <EmailLinkCard title={title} headingRef={headingRef}>
      {body}
    </EmailLinkCard>
  );
}

import type * as React from 'react';
import { Link, useSearchParams } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { EMAIL_BANNER_TITLE, EMAIL_VERIFIED_TITLE, EMAIL_VERIFY_EXPIRED } from '@shared/verification';
import { Button } from '@/components/ui/button';
import { EmailLinkCard, emailLinkClass, useEmailLink } from '@/components/email-link-page';
import { useSession } from '@/features/auth';
import { ApiError } from '@/lib/api-client';
import { isVerifyLinkExpired, useVerifyEmail } from '../api/email';

/**
 * '/verify-email?token=...', the link of the sign-up's 'Confirm your e-mail address' mail. The address is confirmed
 * as soon as the page opens, signed in or not (the token says whose). An expired or used link says how to get a new one.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const session = useSession();
  const signedIn = Boolean(session.data?.user);

  const headingRef = useEmailLink(token, mutate, verify.isSuccess || verify.isError);

  const next = signedIn ? (
    <Link to={PAGE_PATHS.dashboard} className={emailLinkClass}>
      Go to your dashboard
    </Link>
  ) : (
    <Link to={PAGE_PATHS.auth} className={emailLinkClass}>
      Sign in
    </Link>
  );

  let title = EMAIL_BANNER_TITLE;
  let body: React.ReactNode;
  if (verify.data) {
    title = EMAIL_VERIFIED_TITLE;
    body = (
      <>
        <p>
          Thank you. <span className="font-medium break-all">{verify.data.email}</span> now shows as ‘Email verified’ on
          your profile.
        </p>
        {next}
      </>
    );
  } else if (!token || isVerifyLinkExpired(verify.error)) {
    body = (
      <>
        <p>{EMAIL_VERIFY_EXPIRED}</p>
        {next}
      </>
    );
  } else if (verify.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>
          We couldn&apos;t confirm your email address.
          {verify.error instanceof ApiError ? ` ${verify.error.message}` : ''}
        </p>
        <Button variant="outline" onClick={() => mutate(token)}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = <p>Confirming your email address...</p>;
  }

  return (
    <EmailLinkCard title={title} headingRef={headingRef}>
      {body}
    </EmailLinkCard>
  );
}

import { PageMeta } from '@/components/page-meta';
import { VerifyEmailPage } from '@/features/verification/components/verify-email-page';

export function Component() {
  return (
    <>
      <PageMeta
        title="Confirm your email address — RuralRoute"
        description="Confirm the e-mail address of your RuralRoute account with the link we e-mailed you."
        // Each visit is one person's link: nothing here for search engines, and the link is not passed on.
        meta={{ robots: 'noindex', referrer: 'no-referrer' }}
      />
      <VerifyEmailPage />
    </>
  );
}

import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { PageMeta } from '@/components/page-meta';

export function Component() {
  return (
    <>
      <PageMeta
        title="Choose a new password — RuralRoute"
        description="Choose a new password for your RuralRoute account with the link we e-mailed you."
        // Each visit is one person's link: nothing here for search engines, and the link is not passed on.
        meta={{ robots: 'noindex', referrer: 'no-referrer' }}
      />
      <ResetPasswordPage />
    </>
  );
}

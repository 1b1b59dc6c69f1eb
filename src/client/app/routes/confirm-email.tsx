import { ConfirmEmailPage } from '@/features/account/components/confirm-email-page';
import { PageMeta } from '@/components/page-meta';

export function Component() {
  return (
    <>
      <PageMeta
        title="Confirm your new email — RuralRoute"
        description="Confirm the new e-mail address of your RuralRoute account with the link we e-mailed you."
        // Each visit is one person's link: nothing here for search engines, and the link is not passed on.
        meta={{ robots: 'noindex', referrer: 'no-referrer' }}
      />
      <ConfirmEmailPage />
    </>
  );
}

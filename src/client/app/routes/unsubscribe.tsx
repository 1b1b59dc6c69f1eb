import { UnsubscribePage } from '@/features/notifications/components/unsubscribe-page';
import { PageMeta } from '@/components/page-meta';

export function Component() {
  return (
    <>
      <PageMeta
        title="Unsubscribe — RuralRoute"
        description="Stop e-mails of one kind from RuralRoute with the link at the foot of the e-mail."
        // Each visit is one person's link: nothing here for search engines.
        meta={{ robots: 'noindex' }}
      />
      <UnsubscribePage />
    </>
  );
}

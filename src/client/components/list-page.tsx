import type * as React from 'react';
import { PageHeader } from '@/components/page-header';
import { PageWithForm } from '@/components/page-with-form';
import { PaginatedList } from '@/components/paginated-list';

/**
 * A dashboard page that is one keyset list under its title. With `create`, the title bar has the button that
 * opens the page's form above the list (My Rides, My Requests).
 */
export function ListPage<T extends { id: string }>({
  title,
  create,
  actions,
  ...list
}: React.ComponentProps<typeof PaginatedList<T>> & {
  title: string;
  create?: Omit<React.ComponentProps<typeof PageWithForm>, 'title' | 'children'>;
  /** Buttons of the title bar of a page without a form (Browse's 'Save this search'). */
  actions?: React.ReactNode;
}) {
  if (create) {
    return (
      <PageWithForm title={title} {...create}>
        <PaginatedList {...list} />
      </PageWithForm>
    );
  }
  return (
    <div>
      <PageHeader title={title} actions={actions} />
      <PaginatedList {...list} />
    </div>
  );
}

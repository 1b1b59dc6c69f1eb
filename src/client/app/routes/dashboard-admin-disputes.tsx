import { useSession } from '@/features/auth/api/session';
// Its own module, not the feature's index: the booking page's chunk does not carry the moderators' page.
import { AdminDisputesPage } from '@/features/disputes/components/admin-disputes-page';
import { Component as NotFound } from './not-found';

/** Admins only: anyone else gets the 404 page, as the API answers them 404 too. */
export function Component() {
  const user = useSession().data?.user;
  if (!user?.is_admin) return <NotFound />;
  return <AdminDisputesPage />;
}

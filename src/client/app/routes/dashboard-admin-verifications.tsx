import { useSession } from '@/features/auth/api/session';
// Its own module, not the feature's index: Settings' chunk does not carry the moderators' page.
import { AdminVerificationsPage } from '@/features/verification/components/admin-verifications-page';
import { Component as NotFound } from './not-found';

/** Admins only: anyone else gets the 404 page, as the API answers them 404 too. */
export function Component() {
  const user = useSession().data?.user;
  if (!user?.is_admin) return <NotFound />;
  return <AdminVerificationsPage />;
}

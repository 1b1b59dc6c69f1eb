import { useSession } from '@/features/auth/api/session';
// Its own module: no other page's chunk carries the admins' inbox.
import { AdminSupportPage } from '@/features/support/components/admin-support-page';
import { Component as NotFound } from './not-found';

/** Admins only: anyone else gets the 404 page, as the API answers them 404 too. */
export function Component() {
  const user = useSession().data?.user;
  if (!user?.is_admin) return <NotFound />;
  return <AdminSupportPage />;
}

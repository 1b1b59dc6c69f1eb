import { useSession } from '@/features/auth/api/session';
import { DashboardHome } from '@/features/dashboard/components/dashboard-home';
import { PlanPaymentBanner } from '@/features/plans/components/plan-payment-banner';
import { EmailBanner } from '@/features/verification/components/email-banner';

/**
 * 'Confirm your email address' while the signed-in account's address is not confirmed (issue 37), and a paid plan's
 * failed renewal (issue 38).
 */
function Banners() {
  const user = useSession().data?.user;
  if (!user) return null;
  return (
    <>
      {!user.email_verified ? <EmailBanner email={user.email} /> : null}
      {user.plan !== 'free' ? <PlanPaymentBanner /> : null}
    </>
  );
}

export function Component() {
  return <DashboardHome banner={<Banners />} />;
}

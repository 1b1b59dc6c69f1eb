import { useSession } from '@/features/auth/api/session';
import { DashboardHome } from '@/features/dashboard/components/dashboard-home';
import { EmailBanner } from '@/features/verification/components/email-banner';

/** 'Confirm your email address' while the signed-in account's address is not confirmed (issue 37). */
function EmailCheck() {
  const user = useSession().data?.user;
  return user && !user.email_verified ? <EmailBanner email={user.email} /> : null;
}

export function Component() {
  return <DashboardHome banner={<EmailCheck />} />;
}

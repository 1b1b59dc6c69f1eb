import { PageMeta } from '@/components/page-meta';
import { Navigate } from 'react-router';
import { useSession } from '@/features/auth/api/session';
import { AuthCard } from '@/features/auth/components/auth-card';
import { useHydrated } from '@/hooks/use-hydrated';
import { PAGE_PATHS } from '@shared/routes';

/**
 * Prerendered twice (scripts/prerender.tsx): signed out with the 'Sign In' tab, and with 'Sign Up' for
 * `?tab=signup`, which the server sends for that address. The tab follows the address (AuthCard), like the page
 * sent, so hydration matches; the session (known only in the browser) redirects only once the page is hydrated.
 */
export function Component() {
  const session = useSession();
  const hydrated = useHydrated();
  if (hydrated && session.data?.user) return <Navigate to={PAGE_PATHS.dashboard} replace />;
  return (
    <div className="flex justify-center px-4 py-10">
      <PageMeta
        title="Sign in or sign up — RuralRoute"
        description="Sign in to RuralRoute, or create an account to share rides and deliveries with your neighbours."
      />
      <AuthCard />
    </div>
  );
}

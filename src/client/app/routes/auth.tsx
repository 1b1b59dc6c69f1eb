import { PageMeta } from '@/components/page-meta';
import { AuthCard } from '@/features/auth/components/auth-card';

/**
 * Prerendered twice (scripts/prerender.tsx): signed out with the 'Sign In' tab, and with 'Sign Up' for
 * `?tab=signup`, which the server sends for that address. The tab follows the address (AuthCard), like the page
 * sent, so hydration matches; the session (known only in the browser) is asked for once the page is hydrated, and a
 * signed-in person is sent on to the dashboard. Outside the query layout: the page's first scripts carry neither the
 * query cache nor zod (issue 34); the forms fetch them when a field is first focused.
 */
export function Component() {
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

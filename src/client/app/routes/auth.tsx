import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '@/features/auth/api/session';
import { AuthCard } from '@/features/auth/components/auth-card';
import { PAGE_PATHS } from '../../../shared/routes';

export function Component() {
  const [params] = useSearchParams();
  const session = useSession();
  if (session.data?.user) return <Navigate to={PAGE_PATHS.dashboard} replace />;
  return (
    <div className="flex justify-center px-4 py-10">
      <title>Sign in or sign up — RuralRoute</title>
      <meta
        name="description"
        content="Sign in to RuralRoute, or create an account to share rides and deliveries with your neighbours."
      />
      <AuthCard initialTab={params.get('tab') === 'signup' ? 'signup' : 'signin'} />
    </div>
  );
}

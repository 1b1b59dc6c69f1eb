import { PageMeta } from '@/components/page-meta';
import { useEffect } from 'react';
import { Link, useLocation } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';

export function Component() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-8 text-center">
      <PageMeta title="Page not found — RuralRoute" />
      <h1 className="text-4xl font-bold">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to={PAGE_PATHS.home} className="text-lg font-medium text-primary underline underline-offset-4">
        Return to Home
      </Link>
    </div>
  );
}

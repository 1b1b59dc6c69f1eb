import { lazy, Suspense, useSyncExternalStore } from 'react';
import { mountToasterOnDemand, subscribeToToasterRequest, toasterRequested } from '@/lib/toaster-signal';

// Importing this module is what makes toasts wait for the lazily mounted toaster instead of going nowhere.
mountToasterOnDemand();

const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

/** Mounts the toaster the first time a page asks for it, so pages that never toast never download it. */
export function ToasterHost() {
  const requested = useSyncExternalStore(subscribeToToasterRequest, toasterRequested, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

import { lazy, Suspense, useSyncExternalStore } from 'react';
import { mountToasterOnDemand, subscribeToToasterRequest, toasterRequested } from '@/lib/toaster-signal';
import { loadClassMerger } from './lazy-page';

// Importing this module is what makes toasts wait for the lazily mounted toaster instead of going nowhere.
mountToasterOnDemand();

// With tailwind-merge: a toast may come on the dashboard's first screen, before anything else has loaded it.
const Toaster = lazy(() =>
  Promise.all([import('@/components/ui/toaster'), loadClassMerger()]).then(([m]) => ({ default: m.Toaster })),
);

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

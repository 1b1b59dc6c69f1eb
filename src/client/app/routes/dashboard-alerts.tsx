import { AlertsPage } from '@/features/alerts';

export function Component() {
  return <AlertsPage />;
}

import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { Link } from '@/lib/router';
import { planName, PLAN_TEXT, type Plan } from '@shared/plans';
import { PAGE_PATHS } from '@shared/routes';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The two fields of GET /plan this banner reads (no schema: the dashboard's code stays free of zod). */
interface PlanStatus {
  plan: Plan;
  status: 'active' | 'past_due' | null;
}

/**
 * The dashboard's banner after a failed renewal (issue 38): 'Your payment failed. Update your card to keep Plus.',
 * with the way to Settings > Plan. Asked only for members with a paid plan.
 */
export function PlanPaymentBanner() {
  const plan = useQuery({
    queryKey: queryKeys.plan,
    queryFn: ({ signal }) => api<PlanStatus>('/plan', { signal }),
  });
  if (plan.data?.status !== 'past_due') return null;
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md border border-red-300 bg-red-50 p-4 text-red-900"
    >
      <AlertTriangle aria-hidden className="size-5 shrink-0" />
      <p className="flex-1 font-semibold">{PLAN_TEXT.paymentFailed(planName(plan.data.plan))}</p>
      <Link
        to={PAGE_PATHS.planSettings}
        className="rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      >
        Update card
      </Link>
    </div>
  );
}

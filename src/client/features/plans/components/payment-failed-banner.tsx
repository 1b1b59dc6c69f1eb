import { AlertTriangle } from 'lucide-react';
import { planName, PLAN_TEXT } from '@shared/plans';
import type { PlanView } from '@shared/plans-api';
import { Button } from '@/components/ui/button';
import { longDate } from '../api/plan';

/** A failed renewal (issue 38): 'Your payment failed. Update your card to keep Plus.', until the grace ends. */
export function PaymentFailedBanner({ view, onUpdateCard }: { view: PlanView; onUpdateCard: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-start gap-3 rounded-md border border-red-300 bg-red-50 p-4 text-red-900"
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="flex-1 space-y-1">
        <p className="font-semibold">{PLAN_TEXT.paymentFailed(planName(view.plan))}</p>
        {view.grace_until ? (
          <p className="text-sm">
            You keep {planName(view.plan)} until {longDate(view.grace_until)}, then you return to the Free plan.
          </p>
        ) : null}
      </div>
      <Button size="sm" onClick={onUpdateCard}>
        Update card
      </Button>
    </div>
  );
}

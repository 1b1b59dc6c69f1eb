import { Link } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { planName } from '@shared/plans';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { usePlan } from '../api/plan';

/** Settings' 'Plan' card: the plan I am on, and the way to its page. */
export function PlanSection() {
  const plan = usePlan();
  const name = plan.data ? planName(plan.data.plan) : null;
  return (
    <SettingsSection title="Plan" description={name ? `You are on ${name}.` : 'Free, Plus or Community.'}>
      {plan.data?.status === 'past_due' ? (
        <p role="alert" className="mb-3 font-semibold text-red-800">
          Your payment failed. Update your card to keep {name}.
        </p>
      ) : null}
      <Button asChild variant="outline">
        <Link to={PAGE_PATHS.planSettings}>Manage plan</Link>
      </Button>
    </SettingsSection>
  );
}

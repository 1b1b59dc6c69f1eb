import { Check } from 'lucide-react';
import { Link } from '@/lib/router';
import { clsx } from 'clsx';
import { PLAN_FEATURES } from '@shared/plans';
import { PAGE_PATHS, SIGN_UP_PATH } from '@shared/routes';

interface Plan {
  name: string;
  price: string;
  period: string;
  description: string;
  badge?: string;
  features: readonly string[];
  action: string;
  /** Where the button leads: sign-up on /auth; for a paid plan with `next` set to Settings > Plan with the plan's
   * dialog open, where the visitor lands once signed in (a signed-in member is sent straight on by /auth). */
  to: string;
  highlighted?: boolean;
}

/** The sign-up tab of /auth, returning to `next` once signed in. */
const signUpThen = (next: string) => `${SIGN_UP_PATH}&next=${encodeURIComponent(next)}`;

/** Spec section 1, plans and their contents; the guarantee's line as issue 36 names it (no insurer behind it). */
const PLANS: readonly Plan[] = [
  {
    name: 'Free',
    price: '$0',
    period: 'forever',
    description: 'Everything you need to share rides and deliveries with your neighbours.',
    features: PLAN_FEATURES.free,
    action: 'Start with Free',
    to: SIGN_UP_PATH,
  },
  {
    name: 'Plus',
    price: '$4.99',
    period: 'per month',
    description: 'For regular drivers and senders who want more from every trip.',
    badge: 'Most Popular',
    features: PLAN_FEATURES.plus,
    action: 'Choose Plus',
    to: signUpThen(`${PAGE_PATHS.planSettings}?plan=plus`),
    highlighted: true,
  },
  {
    name: 'Community',
    price: '$49.99',
    period: 'per year',
    description: 'A full year of Plus, with extras for the people who keep their community moving.',
    badge: '17% saving',
    features: PLAN_FEATURES.community,
    action: 'Choose Community',
    to: signUpThen(`${PAGE_PATHS.planSettings}?plan=community`),
  },
];

export function PricingPlans() {
  return (
    <ul className="grid gap-6 lg:grid-cols-3">
      {PLANS.map((plan) => {
        const headingId = `plan-${plan.name.toLowerCase()}`;
        return (
          <li
            key={plan.name}
            className={clsx(
              'flex flex-col rounded-lg bg-card p-6 shadow-sm',
              plan.highlighted ? 'border-2 border-primary' : 'border',
            )}
          >
            <div className="flex items-center justify-between gap-2">
              <h2 id={headingId} className="text-2xl font-bold">
                {plan.name}
              </h2>
              {plan.badge ? (
                <span className="rounded-full bg-secondary px-3 py-1 text-sm font-semibold text-secondary-foreground">
                  {plan.badge}
                </span>
              ) : null}
            </div>
            <p className="mt-4">
              <span className="text-4xl font-bold">{plan.price}</span>{' '}
              <span className="text-muted-foreground">{plan.period}</span>
            </p>
            <p className="mt-3 text-muted-foreground">{plan.description}</p>
            <ul className="mt-6 flex-1 space-y-3" aria-label={`${plan.name} plan includes`}>
              {plan.features.map((f) => (
                <li key={f} className="flex items-start gap-2">
                  <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
                  <span>{f}</span>
                </li>
              ))}
            </ul>
            <Link
              to={plan.to}
              className={clsx(
                'mt-8 inline-flex h-11 items-center justify-center rounded-md px-4 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
                plan.highlighted
                  ? 'bg-primary text-primary-foreground hover:bg-primary/90'
                  : 'border border-primary text-primary hover:bg-accent',
              )}
            >
              {plan.action}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Paid plans (issue 38, docs/plans.md): what each costs, how long it runs, and the rules of its benefits. Shared by
 * the server (charges, renewals, benefits) and the client (the pricing page, Settings > Plan). Amounts in cents, USD.
 */

export const PAID_PLANS = ['plus', 'community'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];
/** A member's plan: a paid one, or Free. */
export type Plan = PaidPlan | 'free';

export const PLAN_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export interface PlanTerms {
  name: string;
  priceCents: number;
  /** How long one paid period runs. */
  period: 'month' | 'year';
}

export const PLAN_TERMS: Record<PaidPlan, PlanTerms> = {
  plus: { name: 'Plus', priceCents: 499, period: 'month' },
  community: { name: 'Community', priceCents: 4999, period: 'year' },
};

/** Whether a plan gives the Plus benefits (Community includes everything in Plus); unknown or absent: Free. */
export const isPaidPlan = (plan: string | null | undefined): plan is PaidPlan =>
  plan === 'plus' || plan === 'community';

export const planName = (plan: Plan) => (plan === 'free' ? 'Free' : PLAN_TERMS[plan].name);

/** What each plan includes (the pricing page's lists; the guarantee named for what it is, issue 36). */
export const PLAN_FEATURES: Record<Plan, readonly string[]> = {
  free: [
    'Unlimited ride requests',
    'Browse rides',
    'Verified profiles',
    'Basic messaging',
    'Standard support',
    'Delivery Guarantee up to $50',
  ],
  plus: [
    'Priority listing',
    'Advanced route planning',
    'Delivery Guarantee up to $250',
    'Premium support',
    'No service fees',
  ],
  community: ['Everything in Plus', 'Rewards', 'Early access', 'Dedicated support', 'Ambassador badge'],
};

/** Days a member keeps their plan after a renewal fails, while they update their card. */
export const PLAN_GRACE_DAYS = 7;

/** The end of a period that starts at `start` (a month or a year later, the day clamped to the month's last). */
export function periodEnd(start: Date, period: PlanTerms['period']): Date {
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  if (period === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}

/**
 * Proration: the unused part of a paid period, in cents, at `at` (rounded down: never credits more than was paid).
 * What a switch credits towards the new plan.
 */
export function unusedCents(paidCents: number, start: Date, end: Date, at: Date): number {
  const total = end.getTime() - start.getTime();
  const left = end.getTime() - at.getTime();
  if (total <= 0 || left <= 0) return 0;
  if (left >= total) return paidCents;
  return Math.floor((paidCents * left) / total);
}

/** Community rewards: a driver's completed deliveries that each earn a RuralRoute credit. */
export const REWARD_MILESTONES = [10, 25, 50] as const;
export const REWARD_CENTS = 500;

/** Advanced route planning: the most stops a Plus or Community ride may have between its ends. */
export const MAX_RIDE_STOPS = 3;

/** Advanced route planning's words: the form, the ride's route and the refusal of stops on Free. */
export const STOPS_TEXT = {
  needsPlan: 'Stops are part of Plus and Community plans.',
  tooMany: `A ride can have at most ${MAX_RIDE_STOPS} stops`,
  required: 'Stop is required',
  tooLong: 'Stop must be less than 500 characters',
  addStop: 'Add a stop',
  removeStop: 'Remove stop',
  upsell: 'Add stops with Plus or Community.',
  heading: 'Stops',
  edit: 'Edit stops',
  save: 'Save stops',
  saved: 'Stops saved',
  /** A Free member's ride that kept its stops from a paid plan: they can be taken off, not edited. */
  removeAll: 'Remove stops',
  removeAllTitle: 'Remove the stops?',
  removeAllDescription: (route: string) =>
    `Stops are part of Plus and Community plans. Your ride goes straight from ${route.replace(' → ', ' to ')} again.`,
  label: (n: number) => `Stop ${n}`,
  via: (n: number) => (n === 1 ? 'via 1 stop' : `via ${n} stops`),
} as const;

export const PLAN_TEXT = {
  endsOn: (plan: string, date: string) => `Your ${plan} plan ends on ${date}.`,
  paymentFailed: (plan: string) => `Your payment failed. Update your card to keep ${plan}.`,
  upgradeToPlus: 'Upgrade to Plus',
  switchToCommunity: 'Switch to Community',
  switchToPlus: 'Switch to Plus',
  cancelPlan: 'Cancel plan',
  priority: 'Priority',
  ambassador: 'Ambassador',
  earlyAccess: 'Try new features first',
} as const;

export const PLANS_UNAVAILABLE_MESSAGE = 'Plans cannot be bought with this payment setup yet.';

/** Community's ambassador badge: its visible word, and its name for assistive technology. */
export const AMBASSADOR_BADGE = 'Ambassador';
export const AMBASSADOR_BADGE_LABEL = 'Ambassador: a RuralRoute Community member';

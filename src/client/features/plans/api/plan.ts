import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '@shared/auth';
import { LONG_DATE_UTC } from '@shared/dates';
import { planName, PLAN_TEXT, type PaidPlan, type Plan } from '@shared/plans';
import { planChargeSchema, planViewSchema, type PlanView } from '@shared/plans-api';
import type { CardValues } from '@/components/card-fields';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

/** 'December 30, 2026' for an ISO time. */
export const longDate = (iso: string) => LONG_DATE_UTC.format(new Date(iso));

/**
 * GET /plan: my plan, its period, its card, what a switch would cost. `awaitingStripe`: back from Stripe Checkout,
 * asked again every 2 seconds until Stripe's confirmation has made the plan (a minute at most).
 */
export function usePlan({ awaitingStripe = false }: { awaitingStripe?: boolean } = {}) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.plan,
    queryFn: async ({ signal }) => planViewSchema.parse(await api<unknown>('/plan', { signal })),
    refetchInterval: (query) =>
      awaitingStripe && query.state.data?.plan === 'free' && query.state.dataUpdateCount < 30 ? 2000 : false,
  });
  const plan = query.data?.plan;
  useEffect(() => {
    if (plan) syncSessionPlan(client, plan);
  }, [client, plan]);
  return query;
}

/**
 * The session's user carries the plan for the forms (a ride's stops): set from the plan as this page knows it (a
 * move's answer, Stripe's confirmation), at once, rather than at the next session check.
 */
function syncSessionPlan(client: QueryClient, plan: Plan) {
  client.setQueryData<SessionInfo>(queryKeys.session, (session) =>
    session?.user && session.user.plan !== plan ? { ...session, user: { ...session.user, plan } } : session,
  );
}

/** Leaving the app for another site's page (one object, so a component test can watch it instead of navigating). */
export const leaveFor = { page: (url: string) => window.location.assign(url) };

/**
 * PAYMENTS_PROVIDER=stripe: Stripe's own page, Checkout for a new plan or the customer portal (the card, the
 * invoices); the browser goes there, and Stripe brings the member back to Settings > Plan.
 */
export function useStripePage() {
  return useMutation({
    mutationFn: async (page: { kind: 'checkout'; plan: PaidPlan } | { kind: 'portal' }) => {
      const body = page.kind === 'checkout' ? { plan: page.plan } : {};
      const { url } = await api<{ url: string }>(`/plan/${page.kind}`, { method: 'POST', body });
      leaveFor.page(url);
    },
    onError: toastMutationError,
  });
}

type Move =
  | { kind: 'subscribe'; plan: PaidPlan; card: CardValues }
  | { kind: 'switch'; plan: PaidPlan }
  | { kind: 'cancel' }
  | { kind: 'resume' }
  | { kind: 'card'; card: CardValues };

const PATHS: Record<Move['kind'], string> = {
  subscribe: '/plan',
  switch: '/plan/switch',
  cancel: '/plan/cancel',
  resume: '/plan/resume',
  card: '/plan/card',
};

/** What each move's success says. */
function toastOf(move: Move, view: PlanView): string {
  const name = planName(view.plan);
  switch (move.kind) {
    case 'subscribe':
      return `Welcome to ${name}`;
    case 'switch':
      return `You switched to ${name}`;
    case 'cancel':
      return PLAN_TEXT.endsOn(name, longDate(view.current_period_end!));
    case 'resume':
      return `Your ${name} plan will renew`;
    case 'card':
      return 'Card updated';
  }
}

/** Every plan move (POST /plan...): never queued offline (a payment waits for no signal); reloads plan and payments. */
export function usePlanMove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (move: Move) => {
      const { kind, ...body } = move;
      return planViewSchema.parse(await api<unknown>(PATHS[kind], { method: 'POST', body }));
    },
    onSuccess: (view, move) => {
      client.setQueryData(queryKeys.plan, view);
      syncSessionPlan(client, view.plan);
      toastSuccess(toastOf(move, view));
    },
    onError: toastMutationError,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.payments }),
  });
}

/** GET /plan/charges: my plan's payments, newest first (the 'Paid' tab). */
export const usePlanCharges = listQuery({
  path: '/plan/charges',
  item: planChargeSchema,
  queryKey: queryKeys.planCharges,
});

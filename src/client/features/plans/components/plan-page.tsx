import { zodResolver } from '@hookform/resolvers/zod';
import { Check } from 'lucide-react';
import { useEffect, useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from '@/lib/router';
import { formatCents } from '@shared/money';
import { cardLabel } from '@shared/notifications';
import { PAID_PLANS, PLAN_FEATURES, PLAN_TERMS, PLAN_TEXT, planName, type PaidPlan, type Plan } from '@shared/plans';
import type { PlanView } from '@shared/plans-api';
import {
  CARD_FIELDS,
  CardFields,
  cardFormSchema,
  EMPTY_CARD,
  type CardForm,
  type CardValues,
} from '@/components/card-fields';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { PageHeader } from '@/components/page-header';
import { QueryLoadError } from '@/components/query-load-error';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TestModeNotice } from '@/components/test-mode-notice';
import { ApiError } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';
import { longDate, usePlan, usePlanMove, useStripePage } from '../api/plan';
import { PaymentFailedBanner } from './payment-failed-banner';

const PERIOD_WORDS = { month: 'a month', year: 'a year' } as const;
const priceLine = (plan: PaidPlan) =>
  `${formatCents(PLAN_TERMS[plan].priceCents)} ${PERIOD_WORDS[PLAN_TERMS[plan].period]}`;

/**
 * The card dialog: subscribing to a plan (its first period paid now) or the card renewals charge ('Update card',
 * which after a failed renewal pays it at once). The card never stays on the device.
 */
function CardDialog({
  open,
  onOpenChange,
  plan,
  view,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Subscribing to this plan; null: updating the card. */
  plan: PaidPlan | null;
  view: PlanView;
}) {
  const move = usePlanMove();
  const form = useForm<CardForm, unknown, CardValues>({
    resolver: zodResolver(cardFormSchema),
    defaultValues: EMPTY_CARD,
  });
  const close = () => {
    form.reset(EMPTY_CARD);
    onOpenChange(false);
  };
  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      (card) =>
        sendThenClose(
          () => move.mutateAsync(plan ? { kind: 'subscribe', plan, card } : { kind: 'card', card }),
          close,
          (err) => {
            if (err instanceof ApiError && err.code === 'card_declined')
              form.setFocus('number', { shouldSelect: true });
          },
        ),
      (errors) => toastFirstError(errors, [...CARD_FIELDS]),
    )(event);
  const pastDue = view.status === 'past_due';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(EMPTY_CARD);
        onOpenChange(next);
      }}
    >
      <FormDialogContent
        title={plan ? `Upgrade to ${planName(plan)}` : 'Update card'}
        description={
          plan
            ? `You pay ${formatCents(PLAN_TERMS[plan].priceCents)} now. ${planName(plan)} renews every ${PLAN_TERMS[plan].period} until you cancel.`
            : pastDue
              ? `Your last payment failed. RuralRoute charges this card for ${planName(view.plan)} now.`
              : 'RuralRoute charges this card when your plan renews.'
        }
        onSubmit={submit}
        busy={form.formState.isSubmitting}
        submitLabel={plan ? 'Pay and subscribe' : pastDue ? 'Save card and pay' : 'Save card'}
        busyLabel={plan || pastDue ? 'Paying...' : 'Saving...'}
      >
        <TestModeNotice show={view.test_mode} extra="Use the card 4242 4242 4242 4242." />
        <CardFields form={form} idPrefix={plan ? `plan-${plan}` : 'plan-card'} />
      </FormDialogContent>
    </Dialog>
  );
}

/** Switching between Plus and Community: what it costs now, the unused time credited. */
function SwitchDialog({ view }: { view: PlanView }) {
  const quote = view.switch_quote!;
  const move = usePlanMove();
  const to = planName(quote.plan);
  return (
    <ConfirmActionButton
      variant="outline"
      title={`Switch to ${to}?`}
      description={
        <>
          <p>{`You pay ${formatCents(quote.card_cents)} now. ${to} starts today and renews every ${PLAN_TERMS[quote.plan].period}.`}</p>
          <ul className="space-y-1 text-sm">
            <li>
              {to} for {PERIOD_WORDS[PLAN_TERMS[quote.plan].period]}: {formatCents(quote.price_cents)}
            </li>
            {quote.proration_cents > 0 ? (
              <li>
                Unused time of {planName(view.plan)}: -{formatCents(quote.proration_cents)}
              </li>
            ) : null}
            {quote.credit_cents > 0 ? <li>RuralRoute credit: -{formatCents(quote.credit_cents)}</li> : null}
            {quote.credit_left_cents > 0 ? (
              <li>The rest of your unused time, {formatCents(quote.credit_left_cents)}, stays as RuralRoute credit.</li>
            ) : null}
          </ul>
          <TestModeNotice show={view.test_mode} />
        </>
      }
      confirmLabel="Switch plan"
      busyLabel="Switching..."
      onConfirm={() => move.mutateAsync({ kind: 'switch', plan: quote.plan })}
    >
      {quote.plan === 'community' ? PLAN_TEXT.switchToCommunity : PLAN_TEXT.switchToPlus}
    </ConfirmActionButton>
  );
}

function Features({ plan }: { plan: Plan }) {
  return (
    <ul className="space-y-2" aria-label={`${planName(plan)} includes`}>
      {PLAN_FEATURES[plan].map((f) => (
        <li key={f} className="flex items-start gap-2">
          <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
          <span>{f}</span>
        </li>
      ))}
    </ul>
  );
}

function CurrentPlan({ view }: { view: PlanView }) {
  const move = usePlanMove();
  const stripePage = useStripePage();
  const onStripe = view.billing === 'stripe';
  const [cardDialogOpen, setCardOpen] = useState(false);
  const cardOpen = cardDialogOpen && !onStripe;
  /** 'Update card': the card dialog, or Stripe's customer portal when Stripe bills the plan. */
  const updateCard = () => (onStripe ? stripePage.mutate({ kind: 'portal' }) : setCardOpen(true));
  /** 'Upgrade to Plus' / 'Choose Community': the card dialog, or Stripe Checkout's page. */
  const choose = (plan: PaidPlan) => (onStripe ? stripePage.mutate({ kind: 'checkout', plan }) : setSubscribeTo(plan));
  const [params, setParams] = useSearchParams();
  // /pricing's buttons come here with ?plan=plus|community: a Free member's dialog opens for it.
  const [subscribeTo, setSubscribeTo] = useState<PaidPlan | null>(() => {
    const asked = params.get('plan');
    return view.plan === 'free' &&
      view.available &&
      view.billing === 'embedded' &&
      (asked === 'plus' || asked === 'community')
      ? asked
      : null;
  });
  const name = planName(view.plan);
  useEffect(() => {
    if (params.has('plan')) setParams({}, { replace: true });
  }, [params, setParams]);

  return (
    <SettingsSection title="Your plan" description={`You are on ${name}.`}>
      <div className="space-y-4">
        {view.status === 'past_due' ? <PaymentFailedBanner view={view} onUpdateCard={updateCard} /> : null}
        {view.plan !== 'free' && view.current_period_end ? (
          <p>
            {view.cancel_at_period_end
              ? PLAN_TEXT.endsOn(name, longDate(view.current_period_end))
              : view.status === 'active'
                ? `Your ${name} plan renews on ${longDate(view.current_period_end)} for ${priceLine(view.plan)}.`
                : null}
          </p>
        ) : null}
        <Features plan={view.plan} />
        {view.card ? (
          <p className="text-sm text-muted-foreground">Card: {cardLabel(view.card.brand, view.card.last4)}</p>
        ) : null}
        {view.credit_cents > 0 ? (
          <p className="text-sm text-muted-foreground">RuralRoute credit: {formatCents(view.credit_cents)}</p>
        ) : null}
        <TestModeNotice show={view.test_mode && view.plan !== 'free'} />
        {!view.available ? (
          <p className="text-sm">Plans cannot be bought with this payment setup yet.</p>
        ) : view.plan === 'free' ? (
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => choose('plus')} disabled={stripePage.isPending}>
              {PLAN_TEXT.upgradeToPlus}
            </Button>
            <Button variant="outline" onClick={() => choose('community')} disabled={stripePage.isPending}>
              Choose Community
            </Button>
            {onStripe ? (
              <p className="basis-full text-sm text-muted-foreground">
                You pay on Stripe&apos;s secure page and come back here.
              </p>
            ) : null}
          </div>
        ) : (
          <div className="flex flex-wrap gap-3">
            {view.switch_quote ? <SwitchDialog view={view} /> : null}
            <Button variant="outline" onClick={updateCard} disabled={stripePage.isPending}>
              {onStripe ? 'Card and invoices' : 'Update card'}
            </Button>
            {view.cancel_at_period_end ? (
              <Button onClick={() => void move.mutateAsync({ kind: 'resume' }).catch(() => undefined)}>
                Keep my plan
              </Button>
            ) : (
              <ConfirmActionButton
                variant="outline"
                title={`Cancel ${name}?`}
                description={
                  view.status === 'past_due'
                    ? `Your ${name} plan ends now and you return to the Free plan.`
                    : `${name} stops renewing. You keep its benefits until ${longDate(view.current_period_end!)}, then you are on the Free plan.`
                }
                confirmLabel={PLAN_TEXT.cancelPlan}
                busyLabel="Cancelling..."
                destructive
                onConfirm={() => move.mutateAsync({ kind: 'cancel' })}
              >
                {PLAN_TEXT.cancelPlan}
              </ConfirmActionButton>
            )}
          </div>
        )}
      </div>
      <CardDialog open={cardOpen} onOpenChange={setCardOpen} plan={null} view={view} />
      <CardDialog
        open={subscribeTo !== null}
        onOpenChange={(next) => {
          if (!next) setSubscribeTo(null);
        }}
        plan={subscribeTo}
        view={view}
      />
    </SettingsSection>
  );
}

/** The other plans, to compare (Free members see both paid ones; members the one they are not on, and Free). */
function OtherPlans({ view }: { view: PlanView }) {
  const others: Plan[] = ['free', ...PAID_PLANS].filter((p) => p !== view.plan) as Plan[];
  return (
    <SettingsSection title="Other plans">
      <div className="grid gap-6 sm:grid-cols-2">
        {others.map((p) => (
          <div key={p}>
            <h3 className="font-semibold">
              {planName(p)}: {p === 'free' ? '$0 forever' : priceLine(p)}
            </h3>
            <div className="mt-2">
              <Features plan={p} />
            </div>
          </div>
        ))}
      </div>
    </SettingsSection>
  );
}

/** '/dashboard/settings/plan': my plan, what it includes, and upgrading, switching or cancelling it. */
export function PlanPage() {
  // Back from Stripe Checkout: the plan is made when Stripe confirms the payment (its webhook), seconds later.
  const [params] = useSearchParams();
  const [backFromCheckout] = useState(() => params.get('checkout') === 'done');
  const plan = usePlan({ awaitingStripe: backFromCheckout });
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Plan" />
      {plan.isPending ? (
        <p role="status">Loading your plan...</p>
      ) : plan.isError ? (
        <QueryLoadError what="your plan" error={plan.error} onRetry={() => void plan.refetch()} />
      ) : (
        <div className="space-y-6">
          {backFromCheckout && plan.data.plan === 'free' ? (
            <p role="status" className="rounded-md border bg-muted p-4">
              Thank you. Your plan starts as soon as Stripe confirms your payment; this page updates by itself.
            </p>
          ) : null}
          <CurrentPlan view={plan.data} />
          <OtherPlans view={plan.data} />
        </div>
      )}
    </div>
  );
}

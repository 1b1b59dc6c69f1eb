import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import { useRef, useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { ACTION_TOASTS } from '@shared/lifecycle';
import { formatCents } from '@shared/money';
import { CREDIT_LABEL, TEST_MODE_NOTICE, type PaymentQuote } from '@shared/payments';
import {
  CARD_FIELDS,
  CardFields,
  cardFormSchema,
  EMPTY_CARD,
  type CardForm,
  type CardValues,
} from '@/components/card-fields';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogTrigger } from '@/components/ui/dialog';
import { api, ApiError } from '@/lib/api-client';
import { changedBy } from '@/lib/booking-actions';
import { toastFirstError } from '@/lib/form-errors';
import { toastMutationError } from '@/lib/mutation-errors';
import { toastError, toastSuccess } from '@/lib/toast';
import { StripeCardField, type StripeCardHandle } from './stripe-card-field';

const schema = cardFormSchema;
const EMPTY = EMPTY_CARD;
const FIELDS = CARD_FIELDS;

/**
 * What choose is sent: the test provider's card fields, the payment method Stripe's element made, or nothing when
 * RuralRoute credit pays it all.
 */
type PaymentBody = { card: CardValues } | { payment_method: string } | Record<string, never>;

/**
 * Choosing a driver on a request with compensation (docs/payments.md): what it costs, as the server computed it, the
 * card, and 'Pay and confirm'. The booking is confirmed only once the payment is held. Never through the send queue:
 * a card is not kept on the device, and a payment waits for no signal; with none, the toast says so and nothing
 * was charged. A declined card keeps the dialog open with the card number selected for another.
 *
 * The card is taken as the server's provider says (quote.provider): the test provider's four fields, or, with
 * Stripe, Stripe's own card element (stripe-card-field.tsx), loaded only once this dialog opens.
 */
export function PayAndChooseDialog({
  bookingId,
  driverName,
  quote,
  disabled,
  label,
  onDone,
}: {
  bookingId: string;
  driverName: string;
  quote: PaymentQuote;
  disabled: boolean;
  /** The trigger's accessible name when its text alone is ambiguous (a list of offers). */
  label?: string;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const done = useRef(false);
  const queryClient = useQueryClient();
  const pay = useMutation({
    mutationFn: (body: PaymentBody) =>
      api(`/bookings/${encodeURIComponent(bookingId)}/choose`, { method: 'POST', body }),
    onSuccess: () => toastSuccess(ACTION_TOASTS.choose),
    onError: toastMutationError,
    onSettled: () => Promise.all(changedBy(bookingId).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
  const form = useForm<CardForm, unknown, CardValues>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const withStripe = quote.provider === 'stripe' && quote.publishable_key !== null;
  const stripeCard = useRef<StripeCardHandle>(null);
  const [stripeBusy, setStripeBusy] = useState(false);
  const [stripeError, setStripeError] = useState<string>();
  const busy = form.formState.isSubmitting || stripeBusy;
  const close = () => {
    done.current = true;
    form.reset(EMPTY);
    setStripeError(undefined);
    setOpen(false);
  };

  const submitCard = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      (card) =>
        sendThenClose(
          () => pay.mutateAsync({ card }),
          close,
          (err) => {
            if (err instanceof ApiError && err.code === 'card_declined')
              form.setFocus('number', { shouldSelect: true });
          },
        ),
      (errors) => toastFirstError(errors, [...FIELDS]),
    )(event);

  /** Stripe: its element makes the payment method (the card never reaches us), then choose is sent with its id. */
  async function submitWithStripe(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setStripeBusy(true);
    try {
      let paymentMethod: string;
      try {
        paymentMethod = await stripeCard.current!.createPaymentMethod();
      } catch (err) {
        const message = (err as Error).message;
        setStripeError(message);
        toastError('Validation Error', message);
        return;
      }
      await sendThenClose(() => pay.mutateAsync({ payment_method: paymentMethod }), close);
    } finally {
      setStripeBusy(false);
    }
  }

  /** RuralRoute credit covers it all (issue 36): no card is asked for. */
  const creditOnly = quote.card_cents === 0;
  async function submitCreditOnly(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setStripeBusy(true);
    try {
      await sendThenClose(() => pay.mutateAsync({}), close);
    } finally {
      setStripeBusy(false);
    }
  }

  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    creditOnly ? void submitCreditOnly(event) : withStripe ? void submitWithStripe(event) : submitCard(event);

  // What the card pays now: the total less the RuralRoute credit that pays first.
  const total = formatCents(quote.card_cents);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          form.reset(EMPTY);
          setStripeError(undefined);
        }
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button disabled={disabled} aria-label={label}>
          <Check aria-hidden />
          Choose this driver
        </Button>
      </DialogTrigger>
      <FormDialogContent
        title={`Choose ${driverName}?`}
        description={`You pay ${total} now`}
        onSubmit={submit}
        busy={busy}
        submitLabel="Pay and confirm"
        busyLabel="Paying..."
        onCloseAutoFocus={(event) => {
          if (!done.current) return;
          done.current = false;
          event.preventDefault();
          onDone();
        }}
      >
        <ul className="space-y-1 text-sm">
          <li>
            Delivery by {driverName}: {formatCents(quote.compensation_cents)}
          </li>
          <li>
            Service fee: {formatCents(quote.fee_cents)}
            {quote.fee_waived_by ? ` (none with ${quote.fee_waived_by})` : null}
          </li>
          {quote.credit_cents > 0 ? (
            <li>
              {CREDIT_LABEL}: -{formatCents(quote.credit_cents)}
            </li>
          ) : null}
        </ul>
        {creditOnly ? (
          <p className="text-sm">Your RuralRoute credit pays for this delivery: no card is needed.</p>
        ) : null}
        <p className="text-sm">Held by RuralRoute until the delivery is complete.</p>
        {quote.test_mode && !creditOnly ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {TEST_MODE_NOTICE} Use the card 4242 4242 4242 4242.
          </p>
        ) : null}
        {creditOnly ? null : withStripe ? (
          <StripeCardField
            ref={stripeCard}
            id={`pay-stripe-${bookingId}`}
            publishableKey={quote.publishable_key!}
            error={stripeError}
            onError={setStripeError}
          />
        ) : (
          <CardFields form={form} idPrefix={`pay-${bookingId}`} />
        )}
      </FormDialogContent>
    </Dialog>
  );
}

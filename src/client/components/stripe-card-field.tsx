import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useImperativeHandle, useRef, useState } from 'react';
import type * as React from 'react';

export const STRIPE_LOADING_MESSAGE = 'Loading the secure card form...';
export const STRIPE_LOAD_FAILED_MESSAGE =
  'The secure card form could not load. Check your connection, then close this window and try again.';

/** What the pay dialog asks of the card element when 'Pay and confirm' is pressed. */
export interface StripeCardHandle {
  /**
   * Stripe makes a payment method from the card typed into its element: resolves with its id (pm_...), or rejects
   * with an Error whose message is Stripe's own, for people ('Your card number is incomplete.').
   */
  createPaymentMethod(): Promise<string>;
}

/**
 * Stripe.js from js.stripe.com (Stripe requires it from its own host: it is never bundled). The loader is
 * @stripe/stripe-js's `pure` entry, imported here on first use: unlike its main entry it adds the script only when
 * loadStripe is called, so nothing of Stripe reaches a page before the pay dialog opens (this component mounts only
 * inside the open dialog). loadStripe keeps the one script for the page, so opening the dialog again reuses it.
 */
const loadStripeJs = (publishableKey: string): Promise<Stripe | null> =>
  import('@stripe/stripe-js/pure').then(({ loadStripe }) => loadStripe(publishableKey));

/**
 * The card entry under PAYMENTS_PROVIDER=stripe: Stripe's own card element (number, expiry, CVC and ZIP in
 * Stripe's iframe), so the card's digits go from the browser to Stripe and never reach RuralRoute; choose gets only
 * the payment method id. The CSP allows js.stripe.com, hooks.stripe.com and api.stripe.com only with Stripe.
 *
 * Stripe.js cannot load in this workplace (no internet): the component tests and e2e cover the test provider's
 * fields and this element's loading and failure states; the element itself runs only against Stripe (docs/payments.md,
 * 'Going live with Stripe').
 */
export function StripeCardField({
  id,
  publishableKey,
  error,
  onError,
  ref,
}: {
  id: string;
  publishableKey: string;
  /** The message under the element (Stripe's, as the person types, or from the last attempt). */
  error?: string;
  onError: (message: string | undefined) => void;
  ref: React.Ref<StripeCardHandle>;
}) {
  const container = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ stripe: Stripe; card: StripeCardElement } | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  // The latest onError, read by the element's listener (mounted once per key).
  const reportError = useRef(onError);
  useEffect(() => {
    reportError.current = onError;
  });

  useEffect(() => {
    let cancelled = false;
    let card: StripeCardElement | undefined;
    loadStripeJs(publishableKey)
      .then((loaded) => {
        if (cancelled) return;
        if (!loaded || !container.current) throw new Error('Stripe.js did not load');
        card = loaded.elements().create('card', {
          style: { base: { fontSize: '16px', fontFamily: 'system-ui, sans-serif' } },
        });
        card.on('ready', () => setStatus('ready'));
        card.on('change', (event) => reportError.current(event.error?.message));
        card.mount(container.current);
        stripe.current = { stripe: loaded, card };
      })
      .catch(() => {
        if (!cancelled) setStatus('failed');
      });
    return () => {
      cancelled = true;
      stripe.current = null;
      card?.destroy();
    };
  }, [publishableKey]);

  useImperativeHandle(
    ref,
    () => ({
      async createPaymentMethod() {
        const current = stripe.current;
        if (!current) throw new Error(status === 'failed' ? STRIPE_LOAD_FAILED_MESSAGE : STRIPE_LOADING_MESSAGE);
        const result = await current.stripe.createPaymentMethod({ type: 'card', card: current.card });
        if (result.error || !result.paymentMethod)
          throw new Error(result.error?.message ?? 'Check your card details and try again.');
        return result.paymentMethod.id;
      },
    }),
    [status],
  );

  const labelId = `${id}-label`;
  const message = status === 'failed' ? STRIPE_LOAD_FAILED_MESSAGE : error;
  return (
    <div className="space-y-2">
      <p id={labelId} className="text-sm leading-none font-medium">
        Card
      </p>
      <div
        role="group"
        aria-labelledby={labelId}
        aria-describedby={message ? `${id}-error` : undefined}
        aria-busy={status === 'loading'}
        className="rounded-md border border-input px-3 py-2.5"
      >
        {/* Stripe mounts its iframe here; nothing else may render inside it. */}
        <div ref={container} />
        {status === 'loading' ? <p className="text-sm text-muted-foreground">{STRIPE_LOADING_MESSAGE}</p> : null}
      </div>
      {message ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {message}
        </p>
      ) : null}
    </div>
  );
}

import Stripe from 'stripe';
import { PAYMENT_ERRORS } from '../../shared/payments';
import { PLANS_UNAVAILABLE_MESSAGE } from '../../shared/plans';
import { DomainError } from '../core/domain-error';
import type {
  ChargeRequest,
  ChargeResult,
  PaymentsProvider,
  PayoutSetupRequest,
  PayoutSetupResult,
  ProviderChargeRecord,
  ProviderTransferRecord,
  RefundRequest,
  TransferRequest,
} from './provider';

/**
 * PAYMENTS_PROVIDER=stripe (docs/payments.md, 'Stripe'): separate charges and transfers on a Connect platform.
 *
 *   charge    a PaymentIntent on the platform, confirmed at once with the payment method Stripe.js made in the pay
 *             dialog; its transfer_group is the booking's, its metadata names our payment, booking and request.
 *   refund    the Refunds API, against that charge.
 *   transfer  the platform's money to the driver's connected (Express) account, when a payout is sent.
 *   payouts   Connect Express onboarding: an account and an account link; the account's payouts_enabled is its state.
 *
 * Every call that creates something carries our idempotency key as Stripe's Idempotency-Key, so the SDK's own
 * retries and ours never charge, refund or transfer twice (Stripe keeps a key's first answer for 24 hours; after
 * that reconciliation, not a retry, repairs what is left: docs/payments.md).
 */

/** How the SDK is reached: the secret key, and a stand-in's address in tests (STRIPE_API_BASE). */
export interface StripeSettings {
  secretKey: string;
  /** http(s)://host:port of a server standing in for api.stripe.com; unset in production. */
  apiBase?: string;
}

/**
 * The SDK client. Retries are safe (every write has an idempotency key), so the SDK may retry a call that failed
 * on the network or with a 409/5xx twice, with its own backoff, before the caller (a job, or choose) sees the error.
 */
export function createStripeClient({ secretKey, apiBase }: StripeSettings): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** PaymentIntents older than this are not scanned when a charge is looked for by listing (see findCharge). */
const FIND_CHARGE_LIST_DAYS = 3;
const DAY_MS = 86_400_000;

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Our key `payment:<paymentId>:charge` -> the payment id the PaymentIntent's metadata carries. */
function paymentIdOf(idempotencyKey: string): string {
  const m = /^payment:([0-9a-f-]{36}):charge$/.exec(idempotencyKey);
  if (!m) throw new Error(`not a charge's idempotency key: ${idempotencyKey}`);
  return m[1]!;
}

/** The charge a PaymentIntent made (its latest_charge, expanded), or null when none was attempted. */
function chargeOf(intent: Stripe.PaymentIntent): Stripe.Charge | null {
  return typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
}

/**
 * A confirmed PaymentIntent as the flow needs it. Only 'succeeded' is money taken. Anything else is a decline: with
 * error_on_requires_action Stripe answers a card that asks for 3-D Secure with an error rather than
 * 'requires_action', and a card payment is never left 'processing'; should either happen, nothing was charged yet
 * and the requester is asked for another card. `last4` is asked only when the charge does not say.
 */
async function resultOf(intent: Stripe.PaymentIntent, last4: () => Promise<string>): Promise<ChargeResult> {
  const charge = chargeOf(intent);
  const card = charge?.payment_method_details?.card;
  if (intent.status !== 'succeeded' || !charge) return { status: 'declined', cardLast4: card?.last4 ?? null };
  return {
    status: 'succeeded',
    chargeId: charge.id,
    cardBrand: card?.brand ?? 'card',
    cardLast4: card?.last4 ?? (await last4()),
    amountCents: intent.amount_received || intent.amount,
  };
}

/** The card's last four digits from a card error (the payment method Stripe tried), if it says. */
function declinedLast4(err: Stripe.errors.StripeError): string | null {
  return err.payment_method?.card?.last4 ?? err.payment_intent?.last_payment_error?.payment_method?.card?.last4 ?? null;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

export function createStripeProvider(stripe: Stripe): PaymentsProvider {
  /**
   * The last four digits of a charged card, asked of Stripe when the charge did not carry them. Every payment method
   * here is a card (allowed_payment_method_types: ['card']), so its digits are always there; '0000' only keeps the
   * type whole.
   */
  async function last4Of(paymentMethodId: string | undefined): Promise<string> {
    if (!paymentMethodId) return '0000';
    const method = await stripe.paymentMethods.retrieve(paymentMethodId);
    return method.card?.last4 ?? '0000';
  }

  async function charge(request: ChargeRequest): Promise<ChargeResult> {
    // The test provider's card fields never reach Stripe: its card element makes a payment method in the browser.
    if (!('paymentMethodId' in request.source))
      throw new DomainError('payment_required', PAYMENT_ERRORS.payment_required.message);
    const paymentMethod = request.source.paymentMethodId;
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency,
          payment_method: paymentMethod,
          allowed_payment_method_types: ['card'],
          confirm: true,
          // Off-session confirmation is not supported in this flow: the server confirms while the dialog waits for
          // its answer, and there is no page to come back to from a bank's 3-D Secure check. A card that asks for
          // one is answered as declined ('Try another card') instead of being left half-paid.
          error_on_requires_action: true,
          description: request.description,
          transfer_group: request.transferGroup,
          metadata: request.metadata,
          expand: ['latest_charge'],
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return await resultOf(intent, () => last4Of(paymentMethod));
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) return { status: 'declined', cardLast4: declinedLast4(err) };
      // A payment method Stripe does not know (expired, made with another account's key, or not Stripe.js's at all):
      // the requester's input, refused like a declined card ('Try another card'), never a 500.
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.param === 'payment_method')
        return { status: 'declined', cardLast4: null };
      throw err;
    }
  }

  /**
   * The charge made under `payment:<id>:charge` (reconciliation, after a crash between the charge and choose's
   * commit). Stripe cannot be asked by idempotency key, so the PaymentIntent is found by the payment id in its
   * metadata. Search first: one call, but Stripe's search index lags writes (under a minute normally, up to an hour
   * in an outage), and 'not found' here makes reconciliation mark the payment failed without refunding it. So an
   * empty search is checked against the list of PaymentIntents of the last FIND_CHARGE_LIST_DAYS days, which is
   * read-after-write consistent: slower, but only for the rare payment that crashed, and never wrong. Older payments
   * never stay pending that long (reconciliation repairs them after 10 minutes).
   */
  async function findCharge(idempotencyKey: string): Promise<ChargeResult | null> {
    const paymentId = paymentIdOf(idempotencyKey);
    const found: Stripe.PaymentIntent[] = [];
    const searched = await stripe.paymentIntents.search({
      query: `metadata['payment_id']:'${paymentId}'`,
      expand: ['data.latest_charge'],
    });
    found.push(...searched.data);
    if (!found.length) {
      const since = unixSeconds(new Date(Date.now() - FIND_CHARGE_LIST_DAYS * DAY_MS));
      for await (const intent of stripe.paymentIntents.list({
        created: { gte: since },
        limit: 100,
        expand: ['data.latest_charge'],
      }))
        if (intent.metadata?.payment_id === paymentId) found.push(intent);
    }
    if (!found.length) return null;
    // One key makes one PaymentIntent; should there be more, a succeeded one is what must be refunded.
    const intent = found.find((i) => i.status === 'succeeded') ?? found[0]!;
    return resultOf(intent, () => last4Of(idOf(intent.payment_method)));
  }

  return {
    name: 'stripe',
    live: true,
    takes: 'paymentMethodId',

    charge,

    async refund(request: RefundRequest): Promise<{ refundId: string }> {
      const refund = await stripe.refunds.create(
        { charge: request.chargeId, amount: request.amountCents },
        { idempotencyKey: request.idempotencyKey },
      );
      return { refundId: refund.id };
    },

    findCharge,

    /**
     * Plans on Stripe go through Stripe Billing (Checkout in subscription mode and its webhooks), not through cards
     * saved here: the plans service does not call this with Stripe (see src/server/plans). Refused, never half-done.
     */
    async saveCard(): Promise<never> {
      throw new DomainError('plans_unavailable', PLANS_UNAVAILABLE_MESSAGE);
    },

    /**
     * Connect Express: the driver's account is made once (its id is kept in payout_accounts and passed back here as
     * accountId) and onboarded on Stripe's own pages through an account link. An account link is single-use and
     * short-lived, so every call makes a new one; refreshUrl is where Stripe sends someone whose link expired.
     */
    async setupPayouts(request: PayoutSetupRequest): Promise<PayoutSetupResult> {
      let accountId = request.accountId;
      if (accountId) {
        const account = await stripe.accounts.retrieve(accountId);
        if (account.payouts_enabled) return { accountId, status: 'active', last4: bankLast4(account) };
      } else {
        const account = await stripe.accounts.create(
          {
            type: 'express',
            country: 'US',
            email: request.email,
            business_type: 'individual',
            // Separate charges and transfers: the account only receives transfers from the platform.
            capabilities: { transfers: { requested: true } },
            metadata: { user_id: request.userId },
          },
          { idempotencyKey: `payouts:${request.userId}:account` },
        );
        accountId = account.id;
        if (account.payouts_enabled) return { accountId, status: 'active', last4: bankLast4(account) };
      }
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: 'account_onboarding',
        return_url: request.returnUrl,
        refresh_url: request.refreshUrl,
      });
      return { accountId, status: 'pending', onboardingUrl: link.url };
    },

    async payoutAccountStatus(accountId: string): Promise<'active' | 'pending'> {
      const account = await stripe.accounts.retrieve(accountId);
      return account.payouts_enabled ? 'active' : 'pending';
    },

    async transfer(request: TransferRequest): Promise<{ transferId: string }> {
      const transfer = await stripe.transfers.create(
        {
          amount: request.amountCents,
          currency: request.currency,
          destination: request.accountId,
          metadata: request.metadata,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { transferId: transfer.id };
    },

    /** Each PaymentIntent that attempted a charge since `since` (the SDK pages through them all). */
    async *listCharges(since: Date): AsyncIterable<ProviderChargeRecord> {
      for await (const intent of stripe.paymentIntents.list({
        created: { gte: unixSeconds(since) },
        limit: 100,
        expand: ['data.latest_charge'],
      })) {
        const charge = chargeOf(intent);
        if (!charge) continue;
        yield {
          chargeId: charge.id,
          paymentId: intent.metadata?.payment_id ?? null,
          amountCents: charge.amount,
          refundedCents: charge.amount_refunded,
          status: intent.status === 'succeeded' ? 'succeeded' : 'declined',
        };
      }
    },

    async *listTransfers(since: Date): AsyncIterable<ProviderTransferRecord> {
      for await (const transfer of stripe.transfers.list({ created: { gte: unixSeconds(since) }, limit: 100 }))
        yield {
          transferId: transfer.id,
          payoutId: transfer.metadata?.payout_id ?? null,
          amountCents: transfer.amount,
        };
    },
  };
}

/** The last four digits of where an Express account is paid, when Stripe shows the platform its bank account. */
function bankLast4(account: Stripe.Account): string | null {
  const external = account.external_accounts?.data[0];
  return external && 'last4' in external ? (external.last4 ?? null) : null;
}

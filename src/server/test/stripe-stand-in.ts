import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server standing in for Stripe's API (api.stripe.com is out of reach here), reached by the real
 * `stripe` SDK through its host, port and protocol settings (STRIPE_API_BASE). It keeps what a test needs of Stripe's
 * behaviour, no more: PaymentIntents confirmed with Stripe's test payment methods (pm_card_visa succeeds,
 * pm_card_chargeDeclined is declined with a 402 card_error, pm_card_authenticationRequired asks for 3-D Secure and,
 * with error_on_requires_action, is a 402 card_error too), refunds within the charge, transfers, Express accounts
 * and account links, search and auto-paginated lists; for Stripe Billing, prices, Checkout sessions in subscription
 * mode (completed by a test, as a member paying on Checkout's page would), subscriptions with their items and
 * periods, their invoices (renewals, prorated switches, declined cards) and customer portal sessions. A repeated Idempotency-Key replays the first answer (the
 * same key with other parameters is Stripe's 400 idempotency_error). Every request is recorded as it arrived, so a
 * test asserts on what the SDK really sent.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body (or the query of a GET), flat as Stripe's encoding writes it: 'metadata[payment_id]'. */
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

interface Answer {
  status: number;
  body: unknown;
}

/** Stripe's test payment methods: the card each stands for and what confirming it does. */
const TEST_METHODS: Record<string, { last4: string; brand: string; outcome: 'succeeds' | 'declined' | '3ds' }> = {
  pm_card_visa: { last4: '4242', brand: 'visa', outcome: 'succeeds' },
  pm_card_mastercard: { last4: '4444', brand: 'mastercard', outcome: 'succeeds' },
  pm_card_chargeDeclined: { last4: '0002', brand: 'visa', outcome: 'declined' },
  pm_card_authenticationRequired: { last4: '3184', brand: 'visa', outcome: '3ds' },
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** A subscription as the stand-in keeps it: one item, its card as a test payment method. */
interface Sub {
  id: string;
  customer: string;
  status: string;
  price: string;
  itemId: string;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  paymentMethod: string;
  metadata: Record<string, string>;
  created: number;
}

const periodAfter = (start: number, interval: 'month' | 'year') => {
  const d = new Date(start * 1000);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return Math.floor(d.getTime() / 1000);
};

/** The nested params Stripe's form encoding writes, e.g. subscription_data[metadata][user_id], read back. */
const nestedMetadata = (params: Record<string, string>, prefix: string) =>
  Object.fromEntries(
    Object.entries(params)
      .filter(([k]) => k.startsWith(`${prefix}[`))
      .map(([k, v]) => [k.slice(prefix.length + 1, -1), v]),
  );

function error(status: number, type: string, message: string, extra: Record<string, unknown> = {}): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

export function createStripeStandIn() {
  const requests: RecordedRequest[] = [];
  const intents = new Map<string, Record<string, unknown>>();
  const charges = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const transfers = new Map<string, Record<string, unknown>>();
  const accounts = new Map<string, Record<string, unknown>>();
  const prices = new Map<string, { id: string; unit_amount: number; interval: 'month' | 'year' }>();
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Sub>();
  const invoices = new Map<string, Record<string, unknown>>();
  const customers = new Map<string, Record<string, unknown>>();
  const keys = new Map<string, { fingerprint: string; answer: Answer }>();
  const state = {
    /** Search answers nothing, as Stripe's search index does for a minute (or an hour, in an outage) after a write. */
    searchLags: false,
    /** List pages this long at most, whatever `limit` asks (Stripe may answer fewer, with has_more). */
    pageSize: 100,
    /** Requests whose path starts with `path` answer 500 (Stripe down), `times` times (the SDK retries twice;
     * Infinity: until the test sets it back to null). */
    outage: null as { path: string; times: number } | null,
  };

  const intentView = (intent: Record<string, unknown>, expand: string[]) => {
    const chargeId = intent.latest_charge as string | null;
    return {
      ...intent,
      latest_charge:
        chargeId && (expand.includes('latest_charge') || expand.includes('data.latest_charge'))
          ? charges.get(chargeId)
          : chargeId,
    };
  };

  const expandOf = (params: Record<string, string>) =>
    Object.entries(params)
      .filter(([k]) => k.startsWith('expand['))
      .map(([, v]) => v);

  const metadataOf = (params: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(params)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
    );

  function createIntent(params: Record<string, string>): Answer {
    const method = TEST_METHODS[params.payment_method ?? ''];
    if (!method)
      return error(400, 'invalid_request_error', `No such PaymentMethod: '${params.payment_method}'`, {
        code: 'resource_missing',
        param: 'payment_method',
      });
    const amount = Number(params.amount);
    const intent: Record<string, unknown> = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: params.currency,
      created: now(),
      description: params.description ?? null,
      metadata: metadataOf(params),
      payment_method: params.payment_method,
      transfer_group: params.transfer_group ?? null,
      status: 'requires_payment_method',
      latest_charge: null,
      last_payment_error: null,
    };
    intents.set(intent.id as string, intent);
    const card = { last4: method.last4, brand: method.brand };
    if (method.outcome === '3ds') {
      // Confirmed with error_on_requires_action: no charge, the intent back to requires_payment_method, an error.
      const lastError = {
        type: 'card_error',
        code: 'authentication_required',
        payment_method: { id: params.payment_method, object: 'payment_method', card },
      };
      intent.last_payment_error = lastError;
      return error(402, 'card_error', 'Your card was declined. This transaction requires authentication.', {
        code: 'authentication_required',
        decline_code: 'authentication_required',
        payment_intent: intent,
        payment_method: lastError.payment_method,
      });
    }
    const charge: Record<string, unknown> = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_refunded: 0,
      currency: params.currency,
      created: now(),
      payment_intent: intent.id,
      status: method.outcome === 'succeeds' ? 'succeeded' : 'failed',
      transfer_group: intent.transfer_group,
      payment_method_details: { type: 'card', card },
    };
    charges.set(charge.id as string, charge);
    intent.latest_charge = charge.id;
    if (method.outcome === 'declined') {
      intent.last_payment_error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' };
      return error(402, 'card_error', 'Your card was declined.', {
        code: 'card_declined',
        decline_code: 'generic_decline',
        charge: charge.id,
        payment_intent: intentView(intent, []),
        payment_method: { id: params.payment_method, object: 'payment_method', card },
      });
    }
    intent.status = 'succeeded';
    intent.amount_received = amount;
    return { status: 200, body: intentView(intent, expandOf(params)) };
  }

  function createRefund(params: Record<string, string>): Answer {
    const charge = charges.get(params.charge ?? '');
    if (!charge || charge.status !== 'succeeded')
      return error(400, 'invalid_request_error', `No such charge: '${params.charge}'`, { code: 'resource_missing' });
    const amount = params.amount
      ? Number(params.amount)
      : (charge.amount as number) - (charge.amount_refunded as number);
    if (amount <= 0 || (charge.amount_refunded as number) + amount > (charge.amount as number))
      return error(400, 'invalid_request_error', 'Refund amount is greater than unrefunded amount on charge', {
        code: 'amount_too_large',
      });
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      status: 'succeeded',
      created: now(),
    };
    refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  }

  function createTransfer(params: Record<string, string>): Answer {
    if (!accounts.has(params.destination ?? ''))
      return error(400, 'invalid_request_error', `No such destination: '${params.destination}'`);
    const transfer = {
      id: newId('tr'),
      object: 'transfer',
      amount: Number(params.amount),
      currency: params.currency,
      destination: params.destination,
      metadata: metadataOf(params),
      transfer_group: params.transfer_group ?? null,
      created: now(),
    };
    transfers.set(transfer.id, transfer);
    return { status: 200, body: transfer };
  }

  function createAccount(params: Record<string, string>): Answer {
    const account = {
      id: newId('acct'),
      object: 'account',
      type: params.type,
      country: params.country,
      email: params.email ?? null,
      metadata: metadataOf(params),
      payouts_enabled: false,
      charges_enabled: false,
      external_accounts: { object: 'list', data: [], has_more: false, url: '/v1/accounts/x/external_accounts' },
    };
    accounts.set(account.id, account);
    return { status: 200, body: account };
  }

  /** One page of a list, newest first as Stripe lists, after `starting_after`, with created[gte]. */
  function page(url: string, rows: Record<string, unknown>[], params: Record<string, string>, view = (r: object) => r) {
    const gte = params['created[gte]'] ? Number(params['created[gte]']) : 0;
    const all = rows.filter((r) => (r.created as number) >= gte).reverse();
    const after = params.starting_after ? all.findIndex((r) => r.id === params.starting_after) + 1 : 0;
    const size = Math.min(Number(params.limit ?? 10), state.pageSize);
    const data = all.slice(after, after + size);
    return {
      status: 200,
      body: { object: 'list', url, has_more: after + size < all.length, data: data.map(view) },
    };
  }

  const subView = (sub: Sub, expand: string[]) => {
    const price = prices.get(sub.price)!;
    const method = TEST_METHODS[sub.paymentMethod];
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      created: sub.created,
      metadata: sub.metadata,
      default_payment_method: expand.includes('default_payment_method')
        ? { id: sub.paymentMethod, object: 'payment_method', type: 'card', card: method }
        : sub.paymentMethod,
      items: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: sub.itemId,
            object: 'subscription_item',
            price: {
              id: price.id,
              object: 'price',
              unit_amount: price.unit_amount,
              recurring: { interval: price.interval },
            },
            quantity: 1,
            current_period_start: sub.periodStart,
            current_period_end: sub.periodEnd,
          },
        ],
      },
    };
  };

  /** An invoice of a subscription: its lines (a negative one for unused time), paid by its card or not. */
  function invoiceFor(
    sub: Sub,
    reason: string,
    lines: { amount: number; price: string; start: number; end: number }[],
  ) {
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    const paid = TEST_METHODS[sub.paymentMethod]?.outcome === 'succeeds';
    const invoice: Record<string, unknown> = {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      billing_reason: reason,
      status: paid ? 'paid' : 'open',
      total,
      amount_due: Math.max(total, 0),
      amount_paid: paid ? Math.max(total, 0) : 0,
      created: now(),
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: {
        object: 'list',
        has_more: false,
        data: lines.map((l) => ({
          id: newId('il'),
          object: 'line_item',
          amount: l.amount,
          period: { start: l.start, end: l.end },
          pricing: { type: 'price_details', price_details: { price: l.price } },
        })),
      },
    };
    invoices.set(invoice.id as string, invoice);
    return invoice;
  }

  function createSession(params: Record<string, string>): Answer {
    if (params.mode !== 'subscription' || !prices.has(params['line_items[0][price]'] ?? ''))
      return error(400, 'invalid_request_error', 'No such price', { param: 'line_items[0][price]' });
    const session = {
      id: newId('cs_test'),
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      url: '',
      customer: params.customer ?? null,
      customer_email: params.customer_email ?? null,
      client_reference_id: params.client_reference_id ?? null,
      metadata: metadataOf(params),
      subscription: null as string | null,
      price: params['line_items[0][price]'],
      subscription_metadata: nestedMetadata(params, 'subscription_data[metadata]'),
      success_url: params.success_url,
      cancel_url: params.cancel_url,
    };
    session.url = `https://checkout.stripe.com/c/pay/${session.id}`;
    sessions.set(session.id, session);
    return { status: 200, body: session };
  }

  function updateSub(id: string, params: Record<string, string>): Answer {
    const sub = subscriptions.get(id);
    if (!sub) return error(404, 'invalid_request_error', `No such subscription: '${id}'`);
    const newPrice = params['items[0][price]'];
    if (newPrice && newPrice !== sub.price) {
      const from = prices.get(sub.price)!;
      const to = prices.get(newPrice);
      if (!to || params['items[0][id]'] !== sub.itemId) return error(400, 'invalid_request_error', 'No such price');
      const at = now();
      const unused = Math.floor((from.unit_amount * (sub.periodEnd - at)) / (sub.periodEnd - sub.periodStart));
      if (TEST_METHODS[sub.paymentMethod]?.outcome !== 'succeeds' && params.payment_behavior === 'error_if_incomplete')
        return error(402, 'card_error', 'Your card was declined.', { code: 'card_declined' });
      const end = periodAfter(at, to.interval);
      invoiceFor(sub, 'subscription_update', [
        { amount: -unused, price: from.id, start: at, end: sub.periodEnd },
        { amount: to.unit_amount, price: to.id, start: at, end },
      ]);
      Object.assign(sub, { price: to.id, periodStart: at, periodEnd: end });
    }
    if (params.cancel_at_period_end !== undefined) sub.cancelAtPeriodEnd = params.cancel_at_period_end === 'true';
    const metadata = metadataOf(params);
    if (Object.keys(metadata).length) sub.metadata = { ...sub.metadata, ...metadata };
    return { status: 200, body: subView(sub, expandOf(params)) };
  }

  function billingRoute(method: string, path: string, params: Record<string, string>): Answer | null {
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params);
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(params.customer ?? '')) return error(400, 'invalid_request_error', 'No such customer');
      const id = newId('bps');
      return {
        status: 200,
        body: {
          id,
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url,
          url: `https://billing.stripe.com/p/session/${id}`,
        },
      };
    }
    const sub = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
    if (sub) {
      const found = subscriptions.get(sub[1]!);
      if (!found) return error(404, 'invalid_request_error', `No such subscription: '${sub[1]}'`);
      if (method === 'GET') return { status: 200, body: subView(found, expandOf(params)) };
      if (method === 'POST') return updateSub(found.id, params);
      if (method === 'DELETE') {
        if (found.status === 'canceled')
          return error(400, 'invalid_request_error', 'This subscription is already canceled.');
        found.status = 'canceled';
        return { status: 200, body: subView(found, expandOf(params)) };
      }
    }
    const invoice = /^\/v1\/invoices\/(\w+)$/.exec(path);
    if (invoice && method === 'GET') {
      const found = invoices.get(invoice[1]!);
      return found ? { status: 200, body: found } : error(404, 'invalid_request_error', 'No such invoice');
    }
    return null;
  }

  /**
   * A member pays on Checkout's page with a test payment method: the customer (new, or the session's), the
   * subscription (active, its first period from now), its paid invoice. What Stripe would then send is for the test
   * to deliver: checkout.session.completed (the session) and invoice.paid (the invoice).
   */
  function completeCheckout(sessionId: string, paymentMethod = 'pm_card_visa') {
    const session = sessions.get(sessionId)!;
    const customer = (session.customer as string | null) ?? newId('cus');
    customers.set(customer, { id: customer, object: 'customer', email: session.customer_email });
    const price = prices.get(session.price as string)!;
    const start = now();
    const subscription: Sub = {
      id: newId('sub'),
      customer,
      status: 'active',
      price: price.id,
      itemId: newId('si'),
      periodStart: start,
      periodEnd: periodAfter(start, price.interval),
      cancelAtPeriodEnd: false,
      paymentMethod,
      metadata: session.subscription_metadata as Record<string, string>,
      created: start,
    };
    subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', customer, subscription: subscription.id });
    const invoice = invoiceFor(subscription, 'subscription_create', [
      { amount: price.unit_amount, price: price.id, start, end: subscription.periodEnd },
    ]);
    const { price: _price, subscription_metadata: _meta, ...sessionView } = session;
    return { session: sessionView, subscription, invoice };
  }

  /**
   * The period ends: Stripe charges the next one. Paid: a new period and its invoice. Declined: the invoice stays
   * open and the subscription is past_due (its card can be changed first with `sub.paymentMethod`).
   */
  function renew(subscriptionId: string) {
    const sub = subscriptions.get(subscriptionId)!;
    const price = prices.get(sub.price)!;
    const start = sub.periodEnd;
    const end = periodAfter(start, price.interval);
    const invoice = invoiceFor(sub, 'subscription_cycle', [{ amount: price.unit_amount, price: price.id, start, end }]);
    if (invoice.status === 'paid') Object.assign(sub, { status: 'active', periodStart: start, periodEnd: end });
    else sub.status = 'past_due';
    return invoice;
  }

  function route(method: string, path: string, params: Record<string, string>): Answer {
    const billing = billingRoute(method, path, params);
    if (billing) return billing;
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(params);
    if (method === 'GET' && path === '/v1/payment_intents/search') {
      const m = /^metadata\['payment_id'\]:'([^']+)'$/.exec(params.query ?? '');
      const expand = expandOf(params);
      const data = state.searchLags
        ? []
        : [...intents.values()]
            .filter((i) => m && (i.metadata as Record<string, string>).payment_id === m[1])
            .map((i) => intentView(i, expand));
      return {
        status: 200,
        body: { object: 'search_result', url: path, has_more: false, next_page: null, data },
      };
    }
    if (method === 'GET' && path === '/v1/payment_intents')
      return page(path, [...intents.values()], params, (i) =>
        intentView(i as Record<string, unknown>, expandOf(params)),
      );
    if (method === 'GET' && path.startsWith('/v1/payment_methods/')) {
      const id = path.slice('/v1/payment_methods/'.length);
      const card = TEST_METHODS[id];
      if (!card) return error(404, 'invalid_request_error', `No such PaymentMethod: '${id}'`);
      return { status: 200, body: { id, object: 'payment_method', type: 'card', card } };
    }
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    if (method === 'POST' && path === '/v1/transfers') return createTransfer(params);
    if (method === 'GET' && path === '/v1/transfers') return page(path, [...transfers.values()], params);
    if (method === 'POST' && path === '/v1/accounts') return createAccount(params);
    if (method === 'GET' && path.startsWith('/v1/accounts/')) {
      const account = accounts.get(path.slice('/v1/accounts/'.length));
      return account ? { status: 200, body: account } : error(404, 'invalid_request_error', 'No such account');
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!accounts.has(params.account ?? '')) return error(400, 'invalid_request_error', 'No such account');
      return {
        status: 200,
        body: {
          object: 'account_link',
          created: now(),
          expires_at: now() + 300,
          url: `https://connect.stripe.com/setup/e/${params.account}/${randomBytes(8).toString('hex')}`,
        },
      };
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = new URLSearchParams(Buffer.concat(chunks).toString());
    const form = req.method === 'GET' ? url.searchParams : body;
    const params = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(body) };
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      params,
      idempotencyKey,
      authorization: req.headers.authorization,
    };
    requests.push(recorded);

    let answer: Answer;
    const outage = state.outage;
    if (outage && outage.times > 0 && url.pathname.startsWith(outage.path)) {
      outage.times--;
      answer = error(500, 'api_error', 'Stripe is having trouble (the stand-in was told to fail).');
    } else if (!/^Bearer sk_test_\w+$/.test(req.headers.authorization ?? ''))
      answer = error(401, 'invalid_request_error', 'Invalid API Key provided');
    else if (req.method === 'POST' && idempotencyKey) {
      const fingerprint = createHash('sha256')
        .update(`${url.pathname}\n${new URLSearchParams(form)}`)
        .digest('hex');
      const first = keys.get(idempotencyKey);
      if (!first) {
        answer = route(recorded.method, recorded.path, params);
        keys.set(idempotencyKey, { fingerprint, answer });
      } else if (first.fingerprint !== fingerprint)
        answer = error(
          400,
          'idempotency_error',
          'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        );
      else answer = first.answer;
    } else answer = route(recorded.method, recorded.path, params);

    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(answer.body));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: err.message } }));
    });
  });
  // Idle connections stay open until close(): Node's default closes them after 5 s, and the SDK reusing one at that
  // instant gets ECONNRESET and spends a retry on it, so a test counting the SDK's tries would see one fewer.
  server.keepAliveTimeout = 0;

  return {
    requests,
    state,
    /** What the stand-in holds, as Stripe would (created objects only, once each). */
    intents,
    charges,
    refunds,
    transfers,
    accounts,
    prices,
    sessions,
    subscriptions,
    invoices,
    /** A recurring price, as made once in Stripe's dashboard. */
    addPrice: (id: string, unitAmount: number, interval: 'month' | 'year') =>
      prices.set(id, { id, unit_amount: unitAmount, interval }),
    completeCheckout,
    renew,
    /** The requests to one method and path. */
    sent: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    /** Listens on a free loopback port; resolves with the base address for STRIPE_API_BASE. */
    listen: () =>
      new Promise<string>((resolve) => {
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StripeStandIn = ReturnType<typeof createStripeStandIn>;

let eventCounter = 0;
/** The body of an event as Stripe delivers it to a webhook endpoint: a new id each time, the SDK's API version. */
export function stripeEventBody(type: string, object: unknown): string {
  return JSON.stringify({
    id: `evt_test_${Date.now()}_${++eventCounter}`,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
}

import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import {
  creditBalanceSchema,
  adminPaymentItemSchema,
  adminPaymentsSchema,
  adminChargebackSchema,
  chargebackCloseSchema,
  earnedItemSchema,
  earningsSummarySchema,
  ledgerTrailSchema,
  paidItemSchema,
  payoutBankSchema,
  payoutSettingsSchema,
  receiptSchema,
  reconciliationSchema,
  type PayoutSettings,
} from '../../shared/payments';
import { DomainError } from '../core/domain-error';
import { objectBody } from '../http/body';
import { errorResponses } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAdmin, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { CHARGEBACK_NOT_FOUND, type Chargebacks } from './chargebacks';
import type { Payouts } from './payouts';
import type { Reserve } from './reserve';
import type { PaymentsProvider } from './provider';
import { RECEIPT_NOT_FOUND, type PaymentReader } from './reader';
import type { PaymentReconciliation } from './reconcile';

const ok = <T extends z.ZodType>(description: string, schema: T) => ({
  200: { description, content: { 'application/json': { schema } } },
});

const paidRoute = createRoute({
  method: 'get',
  path: '/paid',
  tags: ['payments'],
  request: { query: pageQuerySchema },
  responses: { ...ok('What I paid, newest first', pageSchema(paidItemSchema)), ...errorResponses(400, 401) },
});
const earnedRoute = createRoute({
  method: 'get',
  path: '/earned',
  tags: ['payments'],
  request: { query: pageQuerySchema },
  responses: { ...ok('What I earned, newest first', pageSchema(earnedItemSchema)), ...errorResponses(400, 401) },
});
const earningsRoute = createRoute({
  method: 'get',
  path: '/earnings',
  tags: ['payments'],
  responses: {
    ...ok("My earnings' totals: in progress, available, paid out", earningsSummarySchema),
    ...errorResponses(401),
  },
});
const creditRoute = createRoute({
  method: 'get',
  path: '/credit',
  tags: ['payments'],
  responses: {
    ...ok(
      'My RuralRoute credit (an approved Delivery Guarantee claim beyond what I paid): spent before my card',
      creditBalanceSchema,
    ),
    ...errorResponses(401),
  },
});

const receiptRoute = createRoute({
  method: 'get',
  path: '/{id}/receipt',
  tags: ['payments'],
  request: { params: idParamSchema },
  responses: {
    ...ok('A payment of mine (as its requester or its driver)', receiptSchema),
    ...errorResponses(401, 404),
  },
});
const payoutsRoute = createRoute({
  method: 'get',
  path: '/payouts',
  tags: ['payments'],
  responses: { ...ok('Whether my payouts are set up', payoutSettingsSchema), ...errorResponses(401) },
});
/** The test provider takes a test routing and account number; Stripe takes nothing (its pages ask). */
const setupBody = z.object({
  routing_number: z.string().optional(),
  account_number: z.string().optional(),
});
const setupPayoutsRoute = createRoute({
  method: 'post',
  path: '/payouts',
  tags: ['payments'],
  request: {
    body: {
      required: false,
      content: { 'application/json': { schema: objectBody(setupBody, INPUT_FALLBACK_MESSAGE) } },
    },
  },
  responses: {
    ...ok('Payouts set up (or, with Stripe, the page that finishes the setup)', payoutSettingsSchema),
    ...errorResponses(400, 401, 415, 429),
  },
});

const adminOverviewRoute = createRoute({
  method: 'get',
  path: '/',
  hide: true,
  responses: ok('Totals and the last reconciliation', adminPaymentsSchema),
});
const adminListRoute = createRoute({
  method: 'get',
  path: '/list',
  hide: true,
  request: { query: pageQuerySchema },
  responses: { ...ok('Every payment, newest first', pageSchema(adminPaymentItemSchema)), ...errorResponses(400) },
});
const adminTrailRoute = createRoute({
  method: 'get',
  path: '/{id}/ledger',
  hide: true,
  request: { params: idParamSchema },
  responses: { ...ok("A payment's ledger trail", ledgerTrailSchema), ...errorResponses(404) },
});
const adminReconcileRoute = createRoute({
  method: 'post',
  path: '/reconcile',
  hide: true,
  request: {
    body: {
      required: false,
      content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
    },
  },
  responses: { ...ok('A reconciliation run now', reconciliationSchema), ...errorResponses(400, 429) },
});

const adminChargebacksRoute = createRoute({
  method: 'get',
  path: '/chargebacks',
  hide: true,
  request: { query: pageQuerySchema },
  responses: {
    ...ok('Every card dispute (chargeback), newest first', pageSchema(adminChargebackSchema)),
    ...errorResponses(400),
  },
});
const raiseChargebackRoute = createRoute({
  method: 'post',
  path: '/{id}/chargeback',
  hide: true,
  request: {
    params: idParamSchema,
    body: {
      required: false,
      content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
    },
  },
  responses: { 204: { description: 'The test bank opened a card dispute' }, ...errorResponses(400, 404, 409, 429) },
});
const closeChargebackRoute = createRoute({
  method: 'post',
  path: '/chargebacks/{id}/close',
  hide: true,
  request: {
    params: idParamSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: objectBody(chargebackCloseSchema, INPUT_FALLBACK_MESSAGE) } },
    },
  },
  responses: { 204: { description: 'The test bank closed the card dispute' }, ...errorResponses(400, 404, 409, 429) },
});

const reserveFundRoute = createRoute({
  method: 'post',
  path: '/reserve',
  hide: true,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: objectBody(z.object({ amount: z.string(), note: z.string() }).partial(), INPUT_FALLBACK_MESSAGE),
        },
      },
    },
  },
  responses: {
    ...ok("The reserve's balance after the money was added", z.object({ guarantee_reserve_cents: z.number().int() })),
    ...errorResponses(400, 429),
  },
});

export interface PaymentRouteDeps {
  reader: PaymentReader;
  payouts: Payouts;
  provider: PaymentsProvider;
  reconciliation: PaymentReconciliation;
  chargebacks: Chargebacks;
  reserve: Reserve;
  throttle: MiddlewareHandler<AppEnv>;
}

/** `/payments/...`: my payments and earnings, receipts, payouts. */
export function paymentRoutes({ reader, payouts, provider, throttle }: PaymentRouteDeps) {
  const router = createRouter();
  router.use('*', requireAuth);
  const settingsOf = (s: { state: PayoutSettings['state']; last4: string | null }, url: string | null = null) => ({
    ...s,
    onboarding_url: url,
    provider: provider.name,
    test_mode: !provider.live,
  });

  router.openapi(paidRoute, async (c) => c.json(await reader.paid(currentAuth(c).user.id, c.req.valid('query')), 200));
  router.openapi(earnedRoute, async (c) =>
    c.json(await reader.earned(currentAuth(c).user.id, c.req.valid('query')), 200),
  );
  router.openapi(earningsRoute, async (c) => {
    const userId = currentAuth(c).user.id;
    return c.json(await reader.earnings(userId, (await payouts.status(userId)).state), 200);
  });
  router.openapi(creditRoute, async (c) => c.json(await reader.credit(currentAuth(c).user.id), 200));
  router.openapi(
    receiptRoute,
    async (c) => c.json(await reader.receipt(currentAuth(c).user.id, c.req.valid('param').id), 200),
    notFoundOnBadId(RECEIPT_NOT_FOUND),
  );
  router.openapi(payoutsRoute, async (c) => c.json(settingsOf(await payouts.status(currentAuth(c).user.id)), 200));
  router.openapi({ ...setupPayoutsRoute, middleware: [throttle] }, async (c) => {
    const { user } = currentAuth(c);
    const body = (c.req.valid('json') as z.infer<typeof setupBody> | undefined) ?? {};
    let bank: { routingNumber: string; accountNumber: string } | undefined;
    if (provider.name === 'test') {
      const parsed = payoutBankSchema.safeParse({
        routing_number: body.routing_number,
        account_number: body.account_number,
      });
      if (!parsed.success) throw new DomainError('validation_error', parsed.error.issues[0]!.message);
      bank = { routingNumber: parsed.data.routing_number, accountNumber: parsed.data.account_number };
    }
    const result = await payouts.setup({ id: user.id, email: user.email }, bank);
    return c.json(settingsOf({ state: result.state, last4: result.last4 }, result.onboardingUrl), 200);
  });
  return router;
}

/** `/admin/payments/...` (admins only; 404 for everyone else): totals, every payment, ledger trails, reconciling. */
export function adminPaymentRoutes({ reader, reconciliation, chargebacks, reserve, throttle }: PaymentRouteDeps) {
  const router = createRouter();
  router.use('*', requireAdmin);
  router.openapi(adminOverviewRoute, async (c) => c.json(await reader.adminOverview(), 200));
  router.openapi(adminListRoute, async (c) => c.json(await reader.adminList(c.req.valid('query')), 200));
  router.openapi(
    adminTrailRoute,
    async (c) => c.json(await reader.trail(c.req.valid('param').id), 200),
    notFoundOnBadId(RECEIPT_NOT_FOUND),
  );
  router.openapi({ ...adminReconcileRoute, middleware: [throttle] }, async (c) =>
    c.json(await reconciliation.run('admin'), 200),
  );
  router.openapi({ ...reserveFundRoute, middleware: [throttle] }, async (c) =>
    c.json(await reserve.fund(currentAuth(c).user.id, c.req.valid('json')), 200),
  );
  router.openapi(adminChargebacksRoute, async (c) => c.json(await chargebacks.adminList(c.req.valid('query')), 200));
  // The test provider's bank (test mode only: a real card dispute comes from Stripe's webhooks).
  router.openapi(
    { ...raiseChargebackRoute, middleware: [throttle] },
    async (c) => {
      await chargebacks.raiseTest(c.req.valid('param').id);
      return c.body(null, 204);
    },
    notFoundOnBadId(RECEIPT_NOT_FOUND),
  );
  router.openapi(
    { ...closeChargebackRoute, middleware: [throttle] },
    async (c) => {
      await chargebacks.closeTest(c.req.valid('param').id, c.req.valid('json').outcome);
      return c.body(null, 204);
    },
    notFoundOnBadId(CHARGEBACK_NOT_FOUND),
  );
  return router;
}

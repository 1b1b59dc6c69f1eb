import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_MODE_NOTICE } from '@shared/payments';
import type { PlanView } from '@shared/plans-api';
import { renderWithProviders, stubApi } from '@/test/render';
import { leaveFor } from '../api/plan';
import { PlanPage } from './plan-page';
import { PlanPayments } from './plan-payments';
import { PlanPaymentBanner } from './plan-payment-banner';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const free: PlanView = {
  plan: 'free',
  status: null,
  current_period_end: null,
  cancel_at_period_end: false,
  grace_until: null,
  card: null,
  switch_quote: null,
  credit_cents: 0,
  test_mode: true,
  available: true,
  billing: 'embedded',
};
const plus: PlanView = {
  ...free,
  plan: 'plus',
  status: 'active',
  current_period_end: '2026-12-30T12:00:00.000Z',
  card: { brand: 'visa', last4: '4242' },
  switch_quote: {
    plan: 'community',
    price_cents: 4999,
    proration_cents: 330,
    credit_cents: 0,
    card_cents: 4669,
    credit_left_cents: 0,
  },
};

describe('Settings > Plan', () => {
  it('a Free member upgrades to Plus with the test card', async () => {
    const api = stubApi({
      'GET /plan': () => ({ body: free }),
      'POST /plan': () => ({ body: plus }),
    });
    renderWithProviders(<PlanPage />);
    expect(await screen.findByText('You are on Free.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade to Plus' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Plus' });
    expect(within(dialog).getByText(/You pay \$4\.99 now/)).toBeInTheDocument();
    expect(within(dialog).getByText(new RegExp(TEST_MODE_NOTICE.replace('.', '\\.')))).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Card number'), '4242 4242 4242 4242');
    await userEvent.type(within(dialog).getByLabelText('Expiry'), '12/40');
    await userEvent.type(within(dialog).getByLabelText('CVC'), '123');
    await userEvent.type(within(dialog).getByLabelText('ZIP'), '05401');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay and subscribe' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.find((c) => c.method === 'POST')!.body).toMatchObject({
      plan: 'plus',
      card: { number: '4242424242424242' },
    });
    expect(await screen.findByText('You are on Plus.')).toBeInTheDocument();
    expect(screen.getByText(/renews on December 30, 2026/)).toBeInTheDocument();
  });

  it("on Stripe Billing, 'Upgrade to Plus' goes to Stripe Checkout's page and 'Card and invoices' to the portal", async () => {
    const go = vi.spyOn(leaveFor, 'page').mockImplementation(() => undefined);
    let view: PlanView = { ...free, billing: 'stripe', test_mode: false };
    const api = stubApi({
      'GET /plan': () => ({ body: view }),
      'POST /plan/checkout': () => ({ body: { url: 'https://checkout.stripe.com/c/pay/cs_test_1' } }),
      'POST /plan/portal': () => ({ body: { url: 'https://billing.stripe.com/p/session/bps_1' } }),
    });
    const { unmount } = renderWithProviders(<PlanPage />);
    expect(await screen.findByText("You pay on Stripe's secure page and come back here.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade to Plus' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.find((c) => c.path === '/plan/checkout')!.body).toEqual({ plan: 'plus' });
    unmount();

    view = { ...plus, billing: 'stripe', test_mode: false };
    renderWithProviders(<PlanPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Card and invoices' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://billing.stripe.com/p/session/bps_1'));
  });

  it('a card the form refuses is never sent', async () => {
    const api = stubApi({ 'GET /plan': () => ({ body: free }) });
    renderWithProviders(<PlanPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Community' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Community' });
    await userEvent.type(within(dialog).getByLabelText('Card number'), '1234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay and subscribe' }));
    expect(within(dialog).getByLabelText('Card number')).toHaveAttribute('aria-invalid', 'true');
    expect(api.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('Plus shows the switch with its proration, and Cancel plan says when it ends', async () => {
    const api = stubApi({
      'GET /plan': () => ({ body: plus }),
      'POST /plan/cancel': () => ({ body: { ...plus, cancel_at_period_end: true } }),
    });
    renderWithProviders(<PlanPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Community' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Switch to Community?' });
    expect(within(confirm).getByText(/You pay \$46\.69 now/)).toBeInTheDocument();
    expect(within(confirm).getByText('Unused time of Plus: -$3.30')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Cancel plan' }));
    const cancel = await screen.findByRole('alertdialog', { name: 'Cancel Plus?' });
    await userEvent.click(within(cancel).getByRole('button', { name: 'Cancel plan' }));
    expect(await screen.findByText('Your Plus plan ends on December 30, 2026.', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Keep my plan' })).toBeInTheDocument();
    expect(api.some((c) => c.method === 'POST' && c.path === '/plan/cancel')).toBe(true);
  });

  it('a failed renewal shows the banner and its way to a new card', async () => {
    stubApi({
      'GET /plan': () => ({
        body: { ...plus, status: 'past_due', grace_until: '2027-01-06T12:00:00.000Z', switch_quote: null },
      }),
    });
    renderWithProviders(<PlanPage />);
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('Your payment failed. Update your card to keep Plus.')).toBeInTheDocument();
    expect(within(banner).getByText(/until January 6, 2027/)).toBeInTheDocument();
    await userEvent.click(within(banner).getByRole('button', { name: 'Update card' }));
    expect(await screen.findByRole('dialog', { name: 'Update card' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save card and pay' })).toBeInTheDocument();
  });
});

describe("The 'Paid' tab's plan payments", () => {
  it('lists each plan payment with its receipt', async () => {
    stubApi({
      'GET /plan/charges': () => ({
        body: {
          items: [
            {
              id: '11111111-1111-4111-8111-111111111111',
              plan: 'community',
              kind: 'switch',
              amount_cents: 4999,
              proration_cents: 330,
              credit_cents: 0,
              card_cents: 4669,
              card: 'Visa ending in 4242',
              period_start: '2026-11-30T12:00:00.000Z',
              period_end: '2027-11-30T12:00:00.000Z',
              paid_at: '2026-11-30T12:00:00.000Z',
              test_mode: true,
            },
          ],
          next_cursor: null,
        },
      }),
    });
    renderWithProviders(<PlanPayments />);
    const section = await screen.findByRole('region', { name: 'Plan payments' });
    expect(await within(section).findByText('RuralRoute Community', { selector: 'p' })).toBeInTheDocument();
    expect(within(section).getByText('$46.69', { selector: 'span' })).toBeInTheDocument();
    await userEvent.click(within(section).getByText('Receipt'));
    expect(within(section).getByText('Unused time credited').nextSibling).toHaveTextContent('-$3.30');
    expect(within(section).getByText('Visa ending in 4242')).toBeVisible();
    expect(within(section).getByText('November 30, 2026 to November 30, 2027')).toBeVisible();
  });
});

describe("The dashboard's banner after a failed renewal", () => {
  it('shows while the plan is past due, with the way to a new card', async () => {
    stubApi({
      'GET /plan': () => ({ body: { ...plus, status: 'past_due', grace_until: '2027-01-06T12:00:00.000Z' } }),
    });
    renderWithProviders(<PlanPaymentBanner />);
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Your payment failed. Update your card to keep Plus.');
    expect(within(banner).getByRole('link', { name: 'Update card' })).toHaveAttribute(
      'href',
      '/dashboard/settings/plan',
    );
  });

  it('shows nothing while the plan is paid', async () => {
    const calls = stubApi({ 'GET /plan': () => ({ body: plus }) });
    renderWithProviders(<PlanPaymentBanner />);
    await waitFor(() => expect(calls.length).toBe(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_NUMBER_MESSAGE,
  ROUTING_NUMBER_MESSAGE,
  TEST_BANK,
  TEST_MODE_NOTICE,
  type EarningsSummary,
  type PaidItem,
  type PayoutSettings,
  type Receipt,
} from '@shared/payments';
import { PAGE_PATHS, receiptPath } from '@shared/routes';
import { renderWithProviders, stubApi } from '@/test/render';
import { PaymentsPage } from './payments-page';
import { PayoutsSection } from './payouts-section';
import { ReceiptPage } from './receipt-page';

afterEach(() => vi.unstubAllGlobals());

const paid: PaidItem = {
  id: '11111111-1111-4111-8111-111111111111',
  booking_id: '22222222-2222-4222-8222-222222222222',
  title: 'Feed sacks',
  total_cents: 1375,
  credit_cents: 0,
  refunded_cents: 0,
  state: 'held',
  chargeback: false,
  paid_at: '2026-11-20T10:00:00.000Z',
};
const earnings: EarningsSummary = {
  in_progress_cents: 1250,
  available_cents: 2500,
  paid_out_cents: 0,
  payouts: 'not_set_up',
  test_mode: true,
};
const notSetUp: PayoutSettings = {
  state: 'not_set_up',
  last4: null,
  onboarding_url: null,
  provider: 'test',
  test_mode: true,
};

describe('Payments page', () => {
  it("'Paid' lists each payment with its total, state and receipt; 'Earned' the totals and the way to payouts", async () => {
    stubApi({
      'GET /payments/paid': () => ({
        body: {
          items: [
            paid,
            { ...paid, id: paid.id.replace('1111', '3333'), title: 'Hay', state: 'refunded', refunded_cents: 1375 },
            { ...paid, id: paid.id.replace('1111', '4444'), title: 'Seed', chargeback: true },
          ],
          next_cursor: null,
        },
      }),
      'GET /payments/earned': () => ({
        body: {
          items: [
            {
              id: paid.id,
              booking_id: paid.booking_id,
              title: 'Feed sacks',
              amount_cents: 1250,
              state: 'released',
              chargeback: false,
              at: paid.paid_at,
            },
            {
              id: paid.id.replace('1111', '4444'),
              booking_id: paid.booking_id,
              title: 'Seed',
              amount_cents: 1250,
              state: 'held',
              chargeback: true,
              at: paid.paid_at,
            },
          ],
          next_cursor: null,
        },
      }),
      'GET /payments/earnings': () => ({ body: earnings }),
    });
    const user = userEvent.setup();
    renderWithProviders(
      <Routes>
        <Route path={PAGE_PATHS.payments} element={<PaymentsPage />} />
      </Routes>,
      { route: PAGE_PATHS.payments },
    );
    const rows = await screen.findAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Feed sacks');
    expect(rows[0]).toHaveTextContent('$13.75');
    expect(rows[0]).toHaveTextContent('Held');
    expect(rows[1]).toHaveTextContent('Refunded $13.75');
    // A card dispute the bank opened shows instead of the payment's state.
    expect(rows[2]).toHaveTextContent('Chargeback');
    expect(rows[2]).not.toHaveTextContent('Held');
    expect(within(rows[0]!).getByRole('link', { name: 'Receipt for Feed sacks' })).toHaveAttribute(
      'href',
      receiptPath(paid.id),
    );
    expect(await screen.findByText(TEST_MODE_NOTICE)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Earned' }));
    const totals = await screen.findByText('In progress');
    expect(totals.closest('dl')).toHaveTextContent('In progress$12.50');
    expect(totals.closest('dl')).toHaveTextContent('Available$25.00');
    expect(totals.closest('dl')).toHaveTextContent('Paid out$0.00');
    const earned = within(screen.getByRole('list', { name: 'Your earnings' })).getAllByRole('listitem');
    expect(earned[0]).toHaveTextContent('Earned');
    expect(earned[1]).toHaveTextContent('Seed');
    expect(earned[1]).toHaveTextContent('Chargeback');
    expect(earned[1]).not.toHaveTextContent('In progress');
    expect(screen.getByRole('link', { name: 'set up payouts' })).toHaveAttribute(
      'href',
      `${PAGE_PATHS.settings}#payouts`,
    );
  });
});

describe("Settings' Payouts", () => {
  it('sets payouts up with a routing and an account number, checked before sending', { timeout: 15_000 }, async () => {
    let settings = notSetUp;
    const calls = stubApi({
      'GET /payments/payouts': () => ({ body: settings }),
      'POST /payments/payouts': () => {
        settings = { ...notSetUp, state: 'active', last4: '6789' };
        return { body: settings };
      },
    });
    const user = userEvent.setup();
    /** Replaces a field's text as a paste does (typing each digit is slow and proves nothing more here). */
    const fill = async (input: HTMLElement, text: string) => {
      await user.clear(input);
      await user.click(input);
      await user.paste(text);
    };
    renderWithProviders(<PayoutsSection />);
    expect(await screen.findByText('Not set up')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Set up payouts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up payouts' });
    expect(dialog).toHaveTextContent(TEST_MODE_NOTICE);
    await fill(within(dialog).getByLabelText('Routing number'), '123456789');
    await fill(within(dialog).getByLabelText('Account number'), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save bank account' }));
    expect(await within(dialog).findByText(ROUTING_NUMBER_MESSAGE)).toBeInTheDocument();
    expect(within(dialog).getByText(ACCOUNT_NUMBER_MESSAGE)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await fill(within(dialog).getByLabelText('Routing number'), TEST_BANK.routingNumber);
    await fill(within(dialog).getByLabelText('Account number'), TEST_BANK.accountNumber);
    await user.click(within(dialog).getByRole('button', { name: 'Save bank account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      routing_number: TEST_BANK.routingNumber,
      account_number: TEST_BANK.accountNumber,
    });
    expect(await screen.findByText('Payouts active')).toBeInTheDocument();
    expect(screen.getByText(/to the bank account ending in 6789/)).toBeInTheDocument();
  });
});

describe('Receipt page', () => {
  const receipt: Receipt = {
    id: paid.id,
    role: 'requester',
    booking_id: paid.booking_id,
    title: 'Feed sacks',
    driver_name: 'Dan Driver',
    requester_name: 'Ana Diaz',
    compensation_cents: 1250,
    fee_cents: 125,
    total_cents: 1375,
    card: 'Visa ending in 4242',
    credit_cents: 0,
    refunded_cents: 0,
    driver_received_cents: 1250,
    state: 'released',
    chargeback: false,
    paid_at: '2026-11-20T10:00:00.000Z',
    settled_at: '2026-11-21T10:00:00.000Z',
    test_mode: true,
  };
  const renderReceipt = (answer: { status?: number; body: unknown }) => {
    stubApi({ [`GET /payments/${paid.id}/receipt`]: () => answer });
    renderWithProviders(
      <Routes>
        <Route path={PAGE_PATHS.receipt} element={<ReceiptPage />} />
      </Routes>,
      { route: receiptPath(paid.id) },
    );
  };

  it('shows what was paid, to whom, with which card, and its state', async () => {
    renderReceipt({ body: receipt });
    expect(await screen.findByRole('heading', { name: 'Receipt' })).toBeInTheDocument();
    const list = screen.getByText('Total paid').closest('dl')!;
    for (const text of [
      'Delivery by Dan Driver$12.50',
      'Service fee$1.25',
      'Total paid$13.75',
      'CardVisa ending in 4242',
      'StateReleased',
    ])
      expect(list).toHaveTextContent(text);
    expect(screen.getByText(TEST_MODE_NOTICE)).toBeInTheDocument();
  });

  it("a charged-back payment's state is 'Chargeback'", async () => {
    renderReceipt({ body: { ...receipt, chargeback: true } });
    const list = (await screen.findByText('Total paid')).closest('dl')!;
    expect(list).toHaveTextContent('StateChargeback');
    expect(list).not.toHaveTextContent('StateReleased');
  });

  it('someone else’s (or a missing) payment is a clear not-found page', async () => {
    renderReceipt({ status: 404, body: { code: 'not_found', message: 'This payment was not found.' } });
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeInTheDocument();
  });
});

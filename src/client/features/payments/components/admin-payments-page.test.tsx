import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHARGEBACK_ERRORS,
  RESERVE_AMOUNT_MESSAGE,
  RESERVE_NOTE_MESSAGE,
  type AdminChargeback,
  type AdminPaymentItem,
  type AdminPayments,
} from '@shared/payments';
import { findToast } from '@/test/find-toast';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { CHARGEBACK_REFETCH_DELAYS_MS, RESERVE_ADDED_TOAST } from '../api/payments';
import { AdminPaymentsPage } from './admin-payments-page';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const overview = (over: Partial<AdminPayments['totals']> = {}, testMode = true): AdminPayments => ({
  totals: {
    held_cents: 1650,
    released_cents: 0,
    refunded_cents: 0,
    fees_cents: 150,
    guarantee_reserve_cents: 10_000,
    available_cents: 0,
    paid_out_cents: 0,
    refunds_pending_cents: 0,
    payouts_pending_cents: 0,
    chargeback_losses_cents: 0,
    ...over,
  },
  last_reconciliation: null,
  test_mode: testMode,
});

const payment: AdminPaymentItem = {
  id: '11111111-1111-4111-8111-111111111111',
  booking_id: '22222222-2222-4222-8222-222222222222',
  title: 'Feed sacks',
  total_cents: 1650,
  credit_cents: 0,
  refunded_cents: 0,
  state: 'held',
  chargeback: false,
  paid_at: '2026-11-20T10:00:00.000Z',
  driver_name: 'Ben Okafor',
  requester_name: 'Ana Diaz',
  compensation_cents: 1500,
  fee_cents: 150,
};

const chargeback: AdminChargeback = {
  id: '33333333-3333-4333-8333-333333333333',
  payment_id: payment.id,
  booking_id: payment.booking_id,
  title: 'Feed sacks',
  requester_name: 'Ana Diaz',
  driver_name: 'Ben Okafor',
  status: 'needs_response',
  reason: 'product_not_received',
  amount_cents: 1650,
  fee_cents: 1500,
  lost_cents: 3150,
  opened_at: '2026-11-21T10:00:00.000Z',
  closed_at: null,
  payment_state: 'held',
  on_hold: true,
  driver_received_cents: 0,
  driver_available_cents: 0,
  test_mode: true,
};

type Routes = Parameters<typeof stubApi>[0];

function renderPage(routes: Routes = {}) {
  const calls = stubApi({
    'GET /admin/payments': () => ({ body: overview() }),
    'GET /admin/payments/list': () => ({ body: emptyPage }),
    'GET /admin/payments/chargebacks': () => ({ body: emptyPage }),
    ...routes,
  });
  const user = userEvent.setup();
  renderWithProviders(<AdminPaymentsPage />);
  return { calls, user };
}

const posts = (calls: ReturnType<typeof stubApi>) => calls.filter((c) => c.method === 'POST');
const disputes = () => screen.getByRole('region', { name: 'Card disputes' });

describe('Admin payments: totals and the reserve', () => {
  it("shows 'Chargeback losses' among the totals", async () => {
    renderPage({ 'GET /admin/payments': () => ({ body: overview({ chargeback_losses_cents: 3150 }) }) });
    const term = await screen.findByText('Chargeback losses', { selector: 'dt' });
    expect(term.nextElementSibling).toHaveTextContent('$31.50');
  });

  it('checks the amount and the note before sending, then adds to the reserve with a toast', async () => {
    const { calls, user } = renderPage({
      'POST /admin/payments/reserve': () => ({ body: { guarantee_reserve_cents: 20_000 } }),
    });
    const form = within(await screen.findByRole('form', { name: 'Add to the reserve' }));
    await user.type(form.getByLabelText('Amount'), '0.50');
    await user.click(form.getByRole('button', { name: 'Add to the reserve' }));
    expect(await form.findByText(RESERVE_AMOUNT_MESSAGE)).toBeVisible();
    expect(form.getByText(RESERVE_NOTE_MESSAGE)).toBeVisible();
    expect(form.getByLabelText('Amount')).toHaveFocus();
    expect(form.getByLabelText('Amount')).toHaveAttribute('aria-invalid', 'true');
    expect(posts(calls)).toHaveLength(0);

    await user.clear(form.getByLabelText('Amount'));
    await user.type(form.getByLabelText('Amount'), '$1,000');
    await user.type(form.getByLabelText('Note'), 'Seed money from the grant');
    await user.click(form.getByRole('button', { name: 'Add to the reserve' }));
    await findToast(RESERVE_ADDED_TOAST);
    expect(posts(calls).map((c) => c.body)).toEqual([{ amount: '1000.00', note: 'Seed money from the grant' }]);
    await waitFor(() => expect(form.getByLabelText('Amount')).toHaveValue(''));
    // The totals are loaded again (the reserve's balance changed).
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/admin/payments').length).toBeGreaterThan(1);
  });

  it("puts the server's refusal under its field", async () => {
    const { user } = renderPage({
      'POST /admin/payments/reserve': () => ({
        status: 400,
        body: { code: 'validation_error', message: RESERVE_NOTE_MESSAGE },
      }),
    });
    const form = within(await screen.findByRole('form', { name: 'Add to the reserve' }));
    await user.type(form.getByLabelText('Amount'), '100');
    await user.type(form.getByLabelText('Note'), 'x');
    await user.click(form.getByRole('button', { name: 'Add to the reserve' }));
    expect(await form.findByText(RESERVE_NOTE_MESSAGE)).toBeVisible();
    expect(form.getByLabelText('Note')).toHaveAttribute('aria-invalid', 'true');
    expect(form.getByLabelText('Note')).toHaveFocus();
    expect(form.getByLabelText('Amount')).not.toHaveAttribute('aria-invalid');
    // What was typed stays.
    expect(form.getByLabelText('Amount')).toHaveValue('100');
  });
});

describe('Admin payments: test chargebacks', () => {
  it("'Raise a test chargeback' asks first (the test bank, its $15.00 fee), posts, and reloads for a few seconds", async () => {
    let raised = false;
    const { calls, user } = renderPage({
      'GET /admin/payments/list': () => ({
        body: {
          items: [
            { ...payment, chargeback: raised },
            // Paid by RuralRoute credit alone: no card to dispute.
            { ...payment, id: payment.id.replace('1111', '4444'), title: 'Hay', credit_cents: 1650 },
          ],
          next_cursor: null,
        },
      }),
      'GET /admin/payments/chargebacks': () => ({ body: { items: raised ? [chargeback] : [], next_cursor: null } }),
      [`POST /admin/payments/${payment.id}/chargeback`]: () => {
        raised = true;
        return { status: 204, body: null };
      },
    });
    const list = await screen.findByRole('list', { name: 'The payments' });
    const rows = within(list).getAllByRole('listitem');
    expect(within(rows[1]!).queryByRole('button', { name: /Raise a test chargeback/ })).not.toBeInTheDocument();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Raise a test chargeback: Feed sacks' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Raise a test chargeback?' });
    expect(dialog).toHaveTextContent('The test bank opens a card dispute');
    expect(dialog).toHaveTextContent("the bank's $15.00 fee are withdrawn");
    expect(posts(calls)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Raise a test chargeback' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([[`/admin/payments/${payment.id}/chargeback`, {}]]);
    // The bank's events are applied by a job: the page reloads and then shows the dispute and the payment's state.
    expect(await within(disputes()).findByRole('article', { name: 'Feed sacks' })).toBeVisible();
    await waitFor(() => expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Chargeback'));
    expect(
      within(within(list).getAllByRole('listitem')[0]!).queryByRole('button', { name: /Raise a test chargeback/ }),
    ).not.toBeInTheDocument();
  });

  it('reloads the page again over the next seconds, as the job applies the events', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, user } = renderPage({
      'GET /admin/payments/list': () => ({ body: { items: [payment], next_cursor: null } }),
      [`POST /admin/payments/${payment.id}/chargeback`]: () => ({ status: 204, body: null }),
    });
    await user.click(await screen.findByRole('button', { name: 'Raise a test chargeback: Feed sacks' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Raise a test chargeback?' });
    await user.click(within(dialog).getByRole('button', { name: 'Raise a test chargeback' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    const loads = () => calls.filter((c) => c.method === 'GET' && c.path.startsWith('/admin/payments/chargebacks'));
    await waitFor(() => expect(loads()).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(CHARGEBACK_REFETCH_DELAYS_MS.at(-1)!);
    await waitFor(() => expect(loads()).toHaveLength(2 + CHARGEBACK_REFETCH_DELAYS_MS.length));
  });

  it("a refusal toasts the server's message and keeps the dialog open", async () => {
    const { user } = renderPage({
      'GET /admin/payments/list': () => ({ body: { items: [payment], next_cursor: null } }),
      [`POST /admin/payments/${payment.id}/chargeback`]: () => ({
        status: 409,
        body: { code: 'chargeback_open', message: CHARGEBACK_ERRORS.chargeback_open.message },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Raise a test chargeback: Feed sacks' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Raise a test chargeback?' });
    await user.click(within(dialog).getByRole('button', { name: 'Raise a test chargeback' }));
    await findToast('Error', CHARGEBACK_ERRORS.chargeback_open.message);
    expect(dialog).toBeVisible();
  });

  it('out of test mode, no payment can be disputed from here', async () => {
    renderPage({
      'GET /admin/payments': () => ({ body: overview({}, false) }),
      'GET /admin/payments/list': () => ({ body: { items: [payment], next_cursor: null } }),
    });
    await screen.findByRole('list', { name: 'The payments' });
    await screen.findByText('Chargeback losses');
    expect(screen.queryByRole('button', { name: /Raise a test chargeback/ })).not.toBeInTheDocument();
  });
});

describe('Admin payments: card disputes', () => {
  it('lists each card dispute with what it cost, whether it holds the booking and what the driver still has', async () => {
    const released: AdminChargeback = {
      ...chargeback,
      id: chargeback.id.replace('3333', '5555'),
      title: 'Hay',
      status: 'lost',
      on_hold: false,
      closed_at: '2026-11-22T10:00:00.000Z',
      payment_state: 'released',
      driver_received_cents: 1500,
      driver_available_cents: 700,
    };
    const { calls, user } = renderPage({
      'GET /admin/payments/chargebacks': ({ path }) => ({
        body: path.includes('cursor=next')
          ? { items: [released], next_cursor: null }
          : { items: [chargeback], next_cursor: 'next' },
      }),
    });
    const open = within(await within(disputes()).findByRole('article', { name: 'Feed sacks' }));
    const term = (name: string) => open.getByText(`${name}:`, { selector: 'dt' }).nextElementSibling;
    expect(open.getByText('Ana Diaz (requester) · Ben Okafor (driver)')).toBeVisible();
    expect(open.getByText('Needs response')).toBeVisible();
    expect(open.getByText('Holds the booking')).toBeVisible();
    expect(term("The bank's reason")).toHaveTextContent('Product not received');
    expect(term('Amount')).toHaveTextContent('$16.50');
    expect(term('Fee')).toHaveTextContent('$15.00');
    expect(term('Lost')).toHaveTextContent('$31.50');
    expect(term('Opened')?.querySelector('time')).toHaveAttribute('datetime', chargeback.opened_at);
    expect(open.queryByText('Closed:')).not.toBeInTheDocument();
    expect(open.queryByText(/Released to/)).not.toBeInTheDocument();
    expect(open.getByRole('button', { name: 'Close as won: Feed sacks' })).toBeVisible();
    expect(open.getByRole('button', { name: 'Close as lost: Feed sacks' })).toBeVisible();

    await user.click(within(disputes()).getByRole('button', { name: 'Load more' }));
    const closed = within(await within(disputes()).findByRole('article', { name: 'Hay' }));
    expect(closed.getByText('Lost', { selector: 'span' })).toBeVisible();
    expect(closed.queryByText('Holds the booking')).not.toBeInTheDocument();
    expect(closed.getByText('Closed:')).toBeVisible();
    expect(
      closed.getByText('Released to Ben Okafor: $15.00. Not taken back automatically. Available balance now: $7.00.'),
    ).toBeVisible();
    // Closed: nothing left to close.
    expect(closed.queryByRole('button')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith('/admin/payments/chargebacks?')).map((c) => c.path)).toEqual([
      '/admin/payments/chargebacks?limit=20',
      '/admin/payments/chargebacks?limit=20&cursor=next',
    ]);
  });

  it("'Close as lost' asks first, then posts the outcome", async () => {
    let closed = false;
    const { calls, user } = renderPage({
      'GET /admin/payments/chargebacks': () => ({
        body: {
          items: [closed ? { ...chargeback, status: 'lost', closed_at: '2026-11-22T10:00:00.000Z' } : chargeback],
          next_cursor: null,
        },
      }),
      [`POST /admin/payments/chargebacks/${chargeback.id}/close`]: () => {
        closed = true;
        return { status: 204, body: null };
      },
    });
    const card = within(await within(disputes()).findByRole('article', { name: 'Feed sacks' }));
    await user.click(card.getByRole('button', { name: 'Close as lost: Feed sacks' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Close as lost?' });
    expect(dialog).toHaveTextContent('the booking is cancelled');
    expect(dialog).toHaveTextContent('test bank');
    expect(posts(calls)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Close as lost' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({
      path: `/admin/payments/chargebacks/${chargeback.id}/close`,
      body: { outcome: 'lost' },
    });
    await waitFor(() => expect(card.queryByRole('button', { name: /Close as/ })).not.toBeInTheDocument());
    expect(card.getByText('Lost', { selector: 'span' })).toBeVisible();
  });

  it('a card dispute of a real bank (not the test one) has nothing to close here', async () => {
    renderPage({
      'GET /admin/payments/chargebacks': () => ({
        body: { items: [{ ...chargeback, test_mode: false }], next_cursor: null },
      }),
    });
    const card = within(await within(disputes()).findByRole('article', { name: 'Feed sacks' }));
    expect(card.getByText('Holds the booking')).toBeVisible();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentQuote } from '@shared/payments';
import { uuid } from '@/test/factories';
import { findToast } from '@/test/find-toast';
import { renderWithProviders, stubApi } from '@/test/render';
import { PayAndChooseDialog } from './pay-and-choose-dialog';
import { STRIPE_LOAD_FAILED_MESSAGE } from './stripe-card-field';

/**
 * The pay dialog under PAYMENTS_PROVIDER=stripe. Stripe.js comes from js.stripe.com, which cannot be reached here
 * (no internet), so its loader (@stripe/stripe-js/pure, Stripe's package, not ours) is replaced by a stand-in that
 * behaves as Stripe.js does for this dialog: loadStripe(key) -> elements().create('card') -> mount, 'ready' and
 * 'change' events, createPaymentMethod({ type: 'card', card }) -> { paymentMethod } or { error }. Our dialog, its
 * element wrapper, the api client and the toasts are the real ones; the server is stubbed at fetch, as everywhere.
 */
const stripeJs = vi.hoisted(() => {
  const state = {
    loads: [] as string[],
    fail: false,
    mounted: 0,
    changeHandler: undefined as ((event: { error?: { message: string } }) => void) | undefined,
    createPaymentMethod: vi.fn(async (_: { type: string; card: unknown }) => ({
      paymentMethod: { id: 'pm_from_stripe_js' } as { id: string } | undefined,
      error: undefined as { message: string } | undefined,
    })),
  };
  const card = {
    handlers: {} as Record<string, (event: never) => void>,
    on(event: string, handler: (event: never) => void) {
      card.handlers[event] = handler;
      if (event === 'change') state.changeHandler = handler as typeof state.changeHandler;
    },
    mount(element: HTMLElement) {
      state.mounted += 1;
      element.append(document.createElement('iframe'));
      queueMicrotask(() => card.handlers.ready?.(undefined as never));
    },
    destroy() {},
  };
  return { state, card };
});

vi.mock('@stripe/stripe-js/pure', () => ({
  loadStripe: async (key: string) => {
    stripeJs.state.loads.push(key);
    if (stripeJs.state.fail) throw new Error('Failed to load Stripe.js');
    return {
      elements: () => ({ create: (type: string) => (type === 'card' ? stripeJs.card : null) }),
      createPaymentMethod: stripeJs.state.createPaymentMethod,
    };
  },
}));

const QUOTE: PaymentQuote = {
  compensation_cents: 1250,
  fee_cents: 125,
  total_cents: 1375,
  credit_cents: 0,
  card_cents: 1375,
  fee_waived_by: null,
  test_mode: false,
  provider: 'stripe',
  publishable_key: 'pk_test_ruralroute',
};

beforeEach(() => {
  Object.assign(stripeJs.state, { loads: [], fail: false, mounted: 0, changeHandler: undefined });
  stripeJs.state.createPaymentMethod.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

function renderDialog(bookingId = uuid()) {
  const onDone = vi.fn();
  renderWithProviders(
    <PayAndChooseDialog bookingId={bookingId} driverName="Sam Lee" quote={QUOTE} disabled={false} onDone={onDone} />,
  );
  return { bookingId, onDone };
}

async function openDialog() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Choose this driver' }));
  const dialog = screen.getByRole('dialog', { name: 'Choose Sam Lee?' });
  return { user, dialog };
}

describe('the pay dialog with Stripe', () => {
  it("loads Stripe.js only when the dialog opens, shows Stripe's card element instead of the card fields, and pays with its payment method", async () => {
    const { bookingId, onDone } = renderDialog();
    const calls = stubApi({ [`POST /bookings/${bookingId}/choose`]: () => ({ body: {} }) });
    // Nothing of Stripe before the dialog opens.
    expect(stripeJs.state.loads).toEqual([]);

    const { user, dialog } = await openDialog();
    expect(dialog).toHaveAccessibleDescription('You pay $13.75 now');
    await waitFor(() => expect(stripeJs.state.mounted).toBe(1));
    expect(stripeJs.state.loads).toEqual(['pk_test_ruralroute']);
    expect(within(dialog).getByRole('group', { name: 'Card' })).toBeVisible();
    expect(within(dialog).queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/Test mode/)).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    await findToast('Driver confirmed');
    expect(stripeJs.state.createPaymentMethod).toHaveBeenCalledWith({ type: 'card', card: stripeJs.card });
    // Only the payment method's id goes to RuralRoute: the card stays with Stripe.
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { payment_method: 'pm_from_stripe_js' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onDone).toHaveBeenCalled();
  });

  it("shows Stripe's own message for an incomplete card and sends nothing; a declined card keeps the dialog open", async () => {
    const { bookingId } = renderDialog();
    const calls = stubApi({
      [`POST /bookings/${bookingId}/choose`]: () => ({
        status: 402,
        body: { code: 'card_declined', message: 'Your card was declined. Try another card.' },
      }),
    });
    const { user, dialog } = await openDialog();
    await waitFor(() => expect(stripeJs.state.changeHandler).toBeDefined());

    act(() => stripeJs.state.changeHandler!({ error: { message: 'Your card number is incomplete.' } }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your card number is incomplete.');
    stripeJs.state.createPaymentMethod.mockResolvedValueOnce({
      paymentMethod: undefined,
      error: { message: 'Your card number is incomplete.' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    await findToast('Validation Error', 'Your card number is incomplete.');
    expect(calls).toEqual([]);

    act(() => stripeJs.state.changeHandler!({}));
    await waitFor(() => expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument());
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    await findToast('Error', 'Your card was declined. Try another card.');
    expect(calls.map((c) => c.body)).toEqual([{ payment_method: 'pm_from_stripe_js' }]);
    expect(screen.getByRole('dialog', { name: 'Choose Sam Lee?' })).toBeVisible();
  });

  it('says so when Stripe.js cannot load, and sends nothing', async () => {
    stripeJs.state.fail = true;
    const { bookingId } = renderDialog();
    const calls = stubApi({ [`POST /bookings/${bookingId}/choose`]: () => ({ body: {} }) });
    const { user, dialog } = await openDialog();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(STRIPE_LOAD_FAILED_MESSAGE);
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    await findToast('Validation Error', STRIPE_LOAD_FAILED_MESSAGE);
    expect(calls).toEqual([]);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPROVED_AMOUNT_MESSAGE,
  DISPUTE_DECIDED_TOAST,
  DISPUTE_ERRORS,
  NOTE_REQUIRED_MESSAGE,
  SPLIT_AMOUNT_MESSAGE,
  type AdminDispute,
} from '@shared/disputes';
import { findToast } from '@/test/find-toast';
import { ADA, makeAdminDispute, SAM } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { AdminDisputesPage } from './admin-disputes-page';

afterEach(() => vi.unstubAllGlobals());

/** The page with GET /admin/disputes answering `open()` for 'Open' and `resolved()` for 'Resolved'. */
function renderPage(
  open: () => AdminDispute[],
  routes: Parameters<typeof stubApi>[0] = {},
  { resolved = () => [] as AdminDispute[], route = '/' } = {},
) {
  const calls = stubApi({
    'GET /admin/disputes': ({ path }) => ({
      body: { items: path.includes('state=resolved') ? resolved() : open(), next_cursor: null },
    }),
    ...routes,
  });
  const user = userEvent.setup();
  renderWithProviders(<AdminDisputesPage />, { route });
  return { calls, user };
}

const card = (name: string) => screen.findByRole('article', { name });
const posts = (calls: ReturnType<typeof stubApi>) => calls.filter((c) => c.method === 'POST');

describe('Disputes (admin)', () => {
  it('shows an open dispute with everything needed to decide it, oldest first', async () => {
    const dispute = makeAdminDispute({
      photos: [{ id: '00000000-0000-4000-8000-0000000000b1', url: '/api/disputes/d1/photos/p1' }],
      response: {
        author: SAM,
        details: 'It was whole when I left it.',
        created_at: '2026-05-03T10:00:00.000Z',
        photos: [],
      },
    });
    const { calls, user } = renderPage(() => [dispute]);
    expect(screen.getByRole('heading', { level: 1, name: 'Disputes' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Open', selected: true })).toBeVisible();
    const c = within(await card('Damaged: Feed sacks'));
    const term = (name: string) => c.getByText(name, { selector: 'dt' }).nextElementSibling;
    // Named, not linked: the moderator is usually not a party of that booking, whose page would be a 404.
    expect(term('Booking')).toHaveTextContent('Feed sacks');
    expect(c.queryByRole('link', { name: 'Feed sacks' })).not.toBeInTheDocument();
    expect(term('Requester')).toHaveTextContent('Ada Fieldada@example.com');
    expect(term('Driver')).toHaveTextContent('Sam Leesam@example.com');
    expect(term('Reported by')).toHaveTextContent('Ada Field (Requester)');
    expect(term('What happened')).toHaveTextContent('Damaged');
    expect(c.getByText(/The sack was torn/).textContent).toBe('The sack was torn.\nHalf the feed was lost.');
    expect(c.getByRole('img', { name: 'Photo 1 of 1 from Ada Field' })).toBeVisible();
    expect(c.getByRole('heading', { name: 'Response from Sam Lee' })).toBeVisible();
    expect(c.getByText('It was whole when I left it.')).toBeVisible();
    expect(term('Compensation')).toHaveTextContent('$12.50');
    expect(term('Service fee')).toHaveTextContent('$1.25');
    expect(term('Total paid')).toHaveTextContent('$13.75');
    expect(term('Payment state')).toHaveTextContent('Held (on hold)');
    await user.click(c.getByText('Timeline (3)'));
    expect(c.getByText('Picked up')).toBeVisible();
    await user.click(c.getByText('Messages (1)'));
    expect(c.getByText('On my way.')).toBeVisible();
    await user.click(c.getByText('Ledger trail'));
    const trail = c.getByRole('table', { name: 'Ledger trail of Feed sacks' });
    expect(within(trail).getByText('held:1')).toBeVisible();
    expect(within(trail).getByText('-$13.75')).toBeVisible();
    // A held payment's decisions, and nothing else.
    expect(c.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Release to driver',
      'Refund requester',
      'Split',
    ]);
    expect(calls[0]?.path).toBe('/admin/disputes?state=open&limit=20');
  });

  it(
    "'Split' needs the note and an amount between $0.01 and the total less $0.01, and sends nothing until then",
    { timeout: 15_000 },
    async () => {
      const dispute = makeAdminDispute();
      const { calls, user } = renderPage(() => [dispute]);
      const c = within(await card('Damaged: Feed sacks'));
      await user.click(c.getByRole('button', { name: 'Split' }));
      await findToast('Validation Error', NOTE_REQUIRED_MESSAGE);
      expect(c.getByLabelText('Note to both people')).toHaveFocus();
      expect(c.getByLabelText('Note to both people')).toHaveAccessibleDescription(NOTE_REQUIRED_MESSAGE);
      expect(c.getByLabelText('Amount refunded to the requester')).toHaveAccessibleDescription(SPLIT_AMOUNT_MESSAGE);

      await user.type(c.getByLabelText('Note to both people'), 'Both of you had a point.');
      for (const amount of ['13.75', '0', 'five']) {
        await user.clear(c.getByLabelText('Amount refunded to the requester'));
        await user.type(c.getByLabelText('Amount refunded to the requester'), amount);
        await user.click(c.getByRole('button', { name: 'Split' }));
        await waitFor(() =>
          expect(c.getByLabelText('Amount refunded to the requester')).toHaveAttribute('aria-invalid', 'true'),
        );
        expect(c.getByText(SPLIT_AMOUNT_MESSAGE)).toBeVisible();
      }
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      // 'Release to driver' takes no amount: the note is enough.
      await user.click(c.getByRole('button', { name: 'Release to driver' }));
      expect(await screen.findByRole('alertdialog', { name: 'Release to driver?' })).toHaveTextContent(
        '$13.75 is released to Sam Lee (the driver) and the booking is completed.',
      );
      await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(c.getByRole('button', { name: 'Release to driver' })).toHaveFocus());
      expect(posts(calls)).toHaveLength(0);
    },
  );

  it('a split asks first, then posts the decision with its amount, toasts and the dispute leaves the list', async () => {
    const dispute = makeAdminDispute();
    let open = [dispute];
    const { calls, user } = renderPage(() => open, {
      [`POST /admin/disputes/${dispute.id}/decision`]: () => {
        open = [];
        return { body: { ...dispute, state: 'resolved' } };
      },
    });
    const c = within(await card('Damaged: Feed sacks'));
    await user.type(c.getByLabelText('Note to both people'), 'Both of you had a point.');
    await user.type(c.getByLabelText('Amount refunded to the requester'), '$5');
    await user.click(c.getByRole('button', { name: 'Split' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Split?' });
    expect(confirm).toHaveTextContent(
      '$5.00 goes back to Ada Field (the requester) and $8.75 is released to Sam Lee (the driver). Both people get your note. This cannot be undone.',
    );
    expect(posts(calls)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Split' }));
    await findToast(DISPUTE_DECIDED_TOAST);
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      [
        `/admin/disputes/${dispute.id}/decision`,
        { decision: 'split', note: 'Both of you had a point.', amount: '5.00' },
      ],
    ]);
    expect(await screen.findByText('No open disputes.')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Open disputes, oldest first' })).toHaveFocus());
  });

  it('a claim is approved up to the cap and the item value, or declined without an amount', async () => {
    const dispute = makeAdminDispute({
      kind: 'claim',
      item_value_cents: 3500,
      claim_cap_cents: 5000,
      booking: { ...makeAdminDispute().booking, status: 'completed', ended_at: '2026-05-03T08:00:00.000Z' },
      payment: {
        state: 'released',
        compensation_cents: 1250,
        fee_cents: 125,
        total_cents: 1375,
        refunded_cents: 0,
        chargeback: false,
      },
    });
    const { calls, user } = renderPage(() => [dispute], {
      [`POST /admin/disputes/${dispute.id}/decision`]: () => ({
        status: 409,
        body: { code: 'dispute_already_decided', message: 'Decided.' },
      }),
    });
    const c = within(await card('Damaged: Feed sacks'));
    expect(c.getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve claim', 'Decline']);
    expect(c.getByLabelText('Amount to pay')).toHaveAccessibleDescription(/up to \$35\.00/);
    await user.type(c.getByLabelText('Note to both people'), 'Sorry for the loss.');
    await user.type(c.getByLabelText('Amount to pay'), '36');
    await user.click(c.getByRole('button', { name: 'Approve claim' }));
    await findToast('Validation Error', APPROVED_AMOUNT_MESSAGE);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await user.click(c.getByRole('button', { name: 'Decline' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Decline?' });
    await user.click(within(confirm).getByRole('button', { name: 'Decline' }));
    await findToast('Error', DISPUTE_ERRORS.dispute_already_decided.message);
    expect(posts(calls)[0]?.body).toEqual({ decision: 'decline', note: 'Sorry for the loss.' });
  });

  it("'Resolved' shows each decision, its note, the moderator and when", async () => {
    const decided = makeAdminDispute({
      state: 'resolved',
      decision: {
        decision: 'split',
        note: 'Both of you had a point.',
        refund_cents: 500,
        released_cents: 875,
        approved_cents: null,
        waiting_for_funds: false,
        decided_at: '2026-05-04T09:00:00.000Z',
      },
      decided_by: { id: ADA.id, full_name: 'Mona Moderator' },
      payment: {
        state: 'partly_refunded',
        compensation_cents: 1250,
        fee_cents: 125,
        total_cents: 1375,
        refunded_cents: 500,
        chargeback: false,
      },
    });
    const { calls } = renderPage(() => [], {}, { resolved: () => [decided], route: '/?tab=resolved' });
    const c = within(await card('Damaged: Feed sacks'));
    expect(c.getByText('Split: $5.00 refunded to the requester, $8.75 released.')).toBeVisible();
    expect(c.getByText('Both of you had a point.')).toBeVisible();
    expect(c.getByText(/^Decided by Mona Moderator/)).toHaveTextContent('May 4, 2026');
    expect(c.getByText('Payment state', { selector: 'dt' }).nextElementSibling).toHaveTextContent(
      'Partly refunded $5.00',
    );
    expect(c.queryByRole('button')).not.toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/admin/disputes?state=resolved&limit=20']);
  });

  it("says 'No open disputes.' when there are none", async () => {
    stubApi({ 'GET /admin/disputes': () => ({ body: emptyPage }) });
    renderWithProviders(<AdminDisputesPage />);
    expect(await screen.findByText('No open disputes.')).toBeVisible();
  });
});

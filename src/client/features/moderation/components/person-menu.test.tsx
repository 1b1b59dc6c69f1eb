import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BookingDetailPage } from '@/features/bookings/components/booking-detail-page';
import { ADA, makeBookingDetail, SAM } from '@/test/factories';
import { makeBlocked, sessionOf } from '@/test/moderation';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { PersonMenu } from './person-menu';

afterEach(() => vi.unstubAllGlobals());

const BOOKING_ID = '00000000-0000-4000-8000-0000000b0001';

/** Sam Lee signed in, looking at Ada Field's name; `blocked` says whether Sam blocked her. */
function renderMenu({
  blocked = false,
  routes = {},
}: { blocked?: boolean; routes?: Parameters<typeof stubApi>[0] } = {}) {
  const calls = stubApi({
    'GET /auth/session': () => ({ body: sessionOf(SAM) }),
    'GET /blocks': () => ({ body: blocked ? { items: [makeBlocked(ADA)], next_cursor: null } : emptyPage }),
    ...routes,
  });
  const user = userEvent.setup();
  const rendered = renderWithProviders(<PersonMenu person={ADA} bookingId={BOOKING_ID} />);
  return { calls, user, ...rendered };
}

const menuButton = () => screen.findByRole('button', { name: 'More actions for Ada Field' });

const openMenu = async (user: ReturnType<typeof userEvent.setup>) => {
  const trigger = await menuButton();
  await waitFor(() => expect(trigger).toHaveAttribute('aria-haspopup', 'menu'));
  await user.click(trigger);
  return screen.findByRole('menu');
};

const toastTexts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');

describe('Person menu', () => {
  it('the name links to their profile; beside it, a menu button for more actions', async () => {
    renderMenu();
    const trigger = await menuButton();
    expect(screen.getByRole('link', { name: 'Ada Field' })).toHaveAttribute('href', `/dashboard/users/${ADA.id}`);
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    // A thumb-sized target (44px).
    expect(trigger).toHaveClass('size-11');
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it("the menu has 'Report' and 'Block'", async () => {
    const { user } = renderMenu();
    const menu = await openMenu(user);
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((i) => i.textContent),
      ).toEqual(['Report', 'Block']),
    );
    expect(within(menu).getByRole('menuitem', { name: 'Block' })).not.toHaveAttribute('aria-disabled');
  });

  it("offers 'Unblock' for someone I blocked, and unblocks without asking", async () => {
    const { calls, user } = renderMenu({
      blocked: true,
      routes: { [`DELETE /blocks/${ADA.id}`]: () => ({ status: 204 }) },
    });
    const menu = await openMenu(user);
    await user.click(await within(menu).findByRole('menuitem', { name: 'Unblock' }));
    expect(await screen.findByText('Unblocked')).toBeVisible();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/blocks/${ADA.id}`]);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('is only the link to my own profile for myself, with no menu', async () => {
    const calls = stubApi({
      'GET /auth/session': () => ({ body: sessionOf(ADA) }),
      'GET /blocks': () => ({ body: emptyPage }),
    });
    const { client } = renderWithProviders(<PersonMenu person={ADA} />);
    await waitFor(() => expect(client.getQueryData(['auth', 'session'])).toBeDefined());
    expect(screen.getByRole('link', { name: 'Ada Field' })).toHaveAttribute('href', `/dashboard/users/${ADA.id}`);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['/auth/session']);
  });

  it('is only the link while I am not known to be signed in', async () => {
    const calls = stubApi({ 'GET /auth/session': () => new Promise(() => {}) });
    renderWithProviders(<PersonMenu person={ADA} />);
    await waitFor(() => expect(calls.map((c) => c.path)).toEqual(['/auth/session']));
    expect(screen.getByRole('link', { name: 'Ada Field' })).toBeVisible();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('works by keyboard: Enter opens it on the first item, arrows move, Escape closes back to the button', async () => {
    const { user } = renderMenu();
    const trigger = await menuButton();
    await waitFor(() => expect(trigger).toHaveAttribute('aria-haspopup', 'menu'));
    trigger.focus();
    await user.keyboard('{Enter}');
    const report = await screen.findByRole('menuitem', { name: 'Report' });
    await waitFor(() => expect(report).toHaveFocus());
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Block' })).not.toHaveAttribute('aria-disabled'));
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Block' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
  });

  it("on the booking page, both names link to the profiles; only the other person's has the menu", async () => {
    const booking = makeBookingDetail({ id: BOOKING_ID }); // Sam Lee is the driver, Ada Field the requester.
    stubApi({
      'GET /auth/session': () => ({ body: sessionOf(SAM) }),
      'GET /blocks': () => ({ body: emptyPage }),
      [`GET /bookings/${booking.id}`]: () => ({ body: booking }),
    });
    renderWithProviders(<BookingDetailPage id={booking.id} />);
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling as HTMLElement;
    await waitFor(() =>
      expect(within(term('Requester')).getByRole('button', { name: 'More actions for Ada Field' })).toBeVisible(),
    );
    expect(within(term('Requester')).getByRole('link', { name: 'Ada Field' })).toHaveAttribute(
      'href',
      `/dashboard/users/${ADA.id}`,
    );
    expect(term('Driver')).toHaveTextContent('Sam Lee (you)');
    expect(within(term('Driver')).getByRole('link', { name: 'Sam Lee' })).toHaveAttribute(
      'href',
      `/dashboard/users/${SAM.id}`,
    );
    expect(within(term('Driver')).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe("'Report' dialog", () => {
  async function openReport(user: ReturnType<typeof userEvent.setup>) {
    const menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitem', { name: 'Report' }));
    return screen.findByRole('dialog', { name: 'Report Ada Field' });
  }

  it('asks for a reason (nothing chosen yet) and details, and shows the contract messages under them', async () => {
    const { calls, user } = renderMenu();
    const dialog = await openReport(user);
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveValue('');
    expect([...(reason as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Choose a reason',
      'Spam or scam',
      'Unsafe behaviour',
      'Prohibited item',
      'Other',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeVisible();

    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('Please choose a reason')).toBeVisible();
    expect(within(dialog).getByText('Details are required')).toBeVisible();
    expect(reason).toHaveAttribute('aria-invalid', 'true');

    await user.selectOptions(reason, 'Spam or scam');
    fireEvent.change(within(dialog).getByLabelText('Details'), { target: { value: 'x'.repeat(1001) } });
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('Details must be less than 1000 characters')).toBeVisible();
    expect(within(dialog).queryByText('Please choose a reason')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('sends the reason, details and booking, toasts the thanks, closes and gives focus back to the menu button', async () => {
    const { calls, user } = renderMenu({ routes: { 'POST /reports': () => ({ status: 201, body: {} }) } });
    const dialog = await openReport(user);
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'Unsafe behaviour');
    await user.type(within(dialog).getByLabelText('Details'), 'Drove off with the parcel.');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Report sent. Thank you for helping keep RuralRoute safe.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      reported_user_id: ADA.id,
      booking_id: BOOKING_ID,
      reason: 'unsafe',
      details: 'Drove off with the parcel.',
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for Ada Field' })).toHaveFocus());
  });

  it("shows the server's validation message and keeps what was typed", async () => {
    const { user } = renderMenu({
      routes: {
        'POST /reports': () => ({ status: 400, body: { code: 'validation_error', message: 'Details are required' } }),
      },
    });
    const dialog = await openReport(user);
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'Other');
    await user.type(within(dialog).getByLabelText('Details'), 'Something odd');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(toastTexts().some((t) => t.includes('Validation Error') && t.includes('Details are required'))).toBe(true),
    );
    expect(within(dialog).getByLabelText('Details')).toHaveValue('Something odd');
  });

  it("'Cancel' closes without sending and focus returns to the menu button", async () => {
    const { calls, user } = renderMenu();
    const dialog = await openReport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for Ada Field' })).toHaveFocus());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe("'Block' confirmation", () => {
  it('explains what a block does, blocks on confirm, toasts and reloads everything it touches', async () => {
    let blocked = false;
    const calls = stubApi({
      'GET /auth/session': () => ({ body: sessionOf(SAM) }),
      'GET /blocks': () => ({ body: blocked ? { items: [makeBlocked(ADA)], next_cursor: null } : emptyPage }),
      'POST /blocks': () => {
        blocked = true;
        return { status: 201, body: {} };
      },
    });
    const user = userEvent.setup();
    const { client } = renderWithProviders(<PersonMenu person={ADA} bookingId={BOOKING_ID} />);
    const invalidate = vi.spyOn(client, 'invalidateQueries');

    const menu = await openMenu(user);
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Block' })).not.toHaveAttribute('aria-disabled'),
    );
    await user.click(within(menu).getByRole('menuitem', { name: 'Block' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Block Ada Field?' });
    for (const text of [
      /can't message you or offer to carry your requests/,
      /won't see each other's rides and requests in Browse/,
      /offer still waiting between you is declined/,
      /confirmed booking between you stays until it is cancelled or completed/,
    ]) {
      expect(within(dialog).getByText(text)).toBeVisible();
    }
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Blocked')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/blocks', body: { user_id: ADA.id } });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    const invalidated = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(invalidated).toEqual(
      expect.arrayContaining([['blocks'], ['rides'], ['requests'], ['bookings'], ['messages']]),
    );
    // The menu now offers 'Unblock', from the reloaded list.
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'GET' && c.path.startsWith('/blocks'))).toHaveLength(2),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for Ada Field' })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'More actions for Ada Field' }));
    expect(await screen.findByRole('menuitem', { name: 'Unblock' })).toBeVisible();
  });

  it("'Cancel' blocks nobody", async () => {
    const { calls, user } = renderMenu();
    const menu = await openMenu(user);
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Block' })).not.toHaveAttribute('aria-disabled'),
    );
    await user.click(within(menu).getByRole('menuitem', { name: 'Block' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Block Ada Field?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

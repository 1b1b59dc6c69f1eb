import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminReport, SuspendedAccount } from '@shared/moderation';
import { ADA } from '@/test/factories';
import { makeAdminReport } from '@/test/moderation';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { AdminReportsPage } from './admin-reports-page';

afterEach(() => vi.unstubAllGlobals());

/** The page with GET /admin/reports answering the current `reports()`. */
function renderPage(reports: () => AdminReport[], routes: Parameters<typeof stubApi>[0] = {}) {
  const calls = stubApi({
    'GET /admin/reports': () => ({ body: { items: reports(), next_cursor: null } }),
    'GET /admin/suspensions': () => ({ body: emptyPage }),
    ...routes,
  });
  const user = userEvent.setup();
  renderWithProviders(<AdminReportsPage />);
  return { calls, user };
}

const card = (name: string) => screen.findByRole('article', { name });

describe('Reports (admin)', () => {
  it('lists open reports with who, about whom, why, what, when and the booking', async () => {
    const report = makeAdminReport({ reported: { ...ADA, suspended: true } });
    const { calls } = renderPage(() => [report]);
    expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const c = await card('Report about Ada Field');
    const term = (name: string) => within(c).getByText(name, { selector: 'dt' }).nextElementSibling;
    expect(term('Reported person')).toHaveTextContent('Ada Field (suspended)');
    expect(term('Reported by')).toHaveTextContent('Sam Lee');
    expect(term('Reason')).toHaveTextContent('Unsafe behaviour');
    expect(term('Date')).toHaveTextContent('May 3, 2026');
    // Named, not linked: the moderator is usually not a party of that booking, whose page would be a 404.
    expect(term('Booking')).toHaveTextContent('Feed sacks');
    expect(within(c).queryByRole('link')).not.toBeInTheDocument();
    const details = within(c).getByText(/Drove off with the parcel/);
    expect(details.textContent).toBe('Drove off with the parcel.\nWould not answer the phone.');
    expect(details).toHaveClass('whitespace-pre-wrap');
    expect(calls[0]?.path).toBe('/admin/reports?status=open&limit=20');
  });

  it('shows the reported review: its stars and its comment as written', async () => {
    const report = makeAdminReport({
      booking: null,
      review: { id: '00000000-0000-4000-8000-0000000000f1', rating: 1, comment: 'Rude.\nNever again.' },
    });
    renderPage(() => [report]);
    const c = await card('Report about Ada Field');
    expect(within(c).getByText('Reported review: 1 star')).toBeVisible();
    expect(within(c).getByText(/Rude\./).textContent).toBe('Rude.\nNever again.');
    expect(within(c).queryByText('Booking', { selector: 'dt' })).not.toBeInTheDocument();
  });

  it("says 'No open reports.' when there are none", async () => {
    stubApi({
      'GET /admin/reports': () => ({ body: emptyPage }),
      'GET /admin/suspensions': () => ({ body: emptyPage }),
    });
    renderWithProviders(<AdminReportsPage />);
    expect(await screen.findByText('No open reports.')).toBeVisible();
  });

  it("'Dismiss' dismisses, toasts 'Report dismissed' and the report leaves the list", async () => {
    const report = makeAdminReport();
    let open = [report];
    const { calls, user } = renderPage(() => open, {
      [`POST /admin/reports/${report.id}/dismiss`]: () => {
        open = [];
        return { body: { ...report, status: 'dismissed' } };
      },
    });
    await user.click(within(await card('Report about Ada Field')).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Report dismissed')).toBeVisible();
    expect(await screen.findByText('No open reports.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/admin/reports/${report.id}/dismiss`,
    ]);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Open reports' })).toHaveFocus());
  });

  it("'Suspend account' asks first, explaining what happens, then suspends and toasts", async () => {
    const report = makeAdminReport();
    let open = [report];
    const { calls, user } = renderPage(() => open, {
      [`POST /admin/reports/${report.id}/suspend`]: () => {
        open = [];
        return { body: { ...report, status: 'actioned', reported: { ...report.reported, suspended: true } } };
      },
    });
    await user.click(within(await card('Report about Ada Field')).getByRole('button', { name: 'Suspend account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Suspend Ada Field?' });
    expect(dialog).toHaveTextContent(
      'Ada Field will not be able to sign in. Any sessions they have end now, and their rides and requests leave Browse.',
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    expect(await screen.findByText('Account suspended')).toBeVisible();
    expect(await screen.findByText('No open reports.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/admin/reports/${report.id}/suspend`,
    ]);
  });

  it("'Cancel' in the confirmation suspends nobody", async () => {
    const report = makeAdminReport();
    const { calls, user } = renderPage(() => [report]);
    await user.click(within(await card('Report about Ada Field')).getByRole('button', { name: 'Suspend account' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe('Suspended accounts (admin)', () => {
  const suspended: SuspendedAccount = {
    user: { id: ADA.id, full_name: 'Ada Field' },
    suspended_at: '2026-05-03T10:00:00.000Z',
  };

  it("lists them; 'Lift suspension' asks first, lifts, toasts and the person leaves the list", async () => {
    let accounts = [suspended];
    const { calls, user } = renderPage(() => [], {
      'GET /admin/suspensions': () => ({ body: { items: accounts, next_cursor: null } }),
      [`DELETE /admin/suspensions/${ADA.id}`]: () => {
        accounts = [];
        return { status: 204 };
      },
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Suspended accounts' })).toBeVisible();
    expect(await screen.findByText('Ada Field')).toBeVisible();
    expect(screen.getByText(/^Suspended May 3, 2026/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Lift suspension of Ada Field' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Lift the suspension of Ada Field?' });
    expect(dialog).toHaveTextContent(
      'Ada Field will be able to sign in again, and their rides and requests return to Browse.',
    );
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Lift suspension' }));
    expect(await screen.findByText('Suspension lifted')).toBeVisible();
    expect(await screen.findByText('No suspended accounts.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/admin/suspensions/${ADA.id}`]);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Suspended accounts' })).toHaveFocus());
  });

  it("'Cancel' lifts nothing; none suspended says so", async () => {
    const { calls, user } = renderPage(() => [], {
      'GET /admin/suspensions': () => ({ body: { items: [suspended], next_cursor: null } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Lift suspension of Ada Field' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  });

  it("says 'No suspended accounts.' when there are none", async () => {
    renderPage(() => []);
    expect(await screen.findByText('No suspended accounts.')).toBeVisible();
  });
});

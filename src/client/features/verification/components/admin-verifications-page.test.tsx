import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ID_APPROVED_TOAST,
  ID_CHECK_ERRORS,
  ID_REASON_REQUIRED,
  ID_REJECTED_TOAST,
  idCheckPhotoPath,
  type AdminIdCheck,
} from '@shared/verification';
import { PAGE_PATHS } from '@shared/routes';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { Component as AdminVerificationsRoute } from '@/app/routes/dashboard-admin-verifications';
import { findToast } from '@/test/find-toast';
import { ADA, SAM, uuid } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import {
  AdminVerificationsPage,
  APPROVE_BUTTON,
  photoAlt,
  REASON_LABEL,
  REJECT_BUTTON,
} from './admin-verifications-page';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function makeCheck(over: Partial<AdminIdCheck> = {}): AdminIdCheck {
  const id = over.id ?? uuid();
  return {
    id,
    user_id: uuid(),
    full_name: 'Ada Field',
    current_name: 'Ada Field',
    submitted_at: '2026-11-28T09:00:00.000Z',
    earlier_attempts: 0,
    photos: { front: idCheckPhotoPath(id, 'front'), selfie: idCheckPhotoPath(id, 'selfie') },
    ...over,
  };
}

/** The page with GET /admin/verifications answering the checks still waiting; a decision takes its check off. */
function renderPage(initial: AdminIdCheck[], decision?: (id: string) => { status?: number; body?: unknown }) {
  let items = initial;
  const routes: Parameters<typeof stubApi>[0] = {
    'GET /admin/verifications': () => ({ body: { items, next_cursor: null } }),
  };
  for (const check of initial)
    routes[`POST /admin/verifications/${check.id}/decision`] = () => {
      const answer = decision?.(check.id) ?? { body: { id: check.id, status: 'approved' } };
      // Decided (here, or by another moderator a moment ago: 409): no longer waiting.
      items = items.filter((i) => i.id !== check.id);
      return answer;
    };
  const calls = stubApi(routes);
  const user = userEvent.setup();
  renderWithProviders(<AdminVerificationsPage />);
  return { calls, user };
}

const card = (name: string) => screen.findByRole('article', { name });
const decisions = (calls: ReturnType<typeof stubApi>) =>
  calls.filter((c) => c.method === 'POST').map((c) => ({ path: c.path, body: c.body }));

describe('ID checks (admin)', () => {
  it('shows each waiting check with both names, the date, earlier attempts and the two photos', async () => {
    const renamed = makeCheck({ full_name: 'Sam Lee', current_name: 'Samuel Lee', earlier_attempts: 2 });
    const first = makeCheck();
    renderPage([first, renamed]);
    const ada = await card('Ada Field');
    const cards = screen.getAllByRole('article');
    expect(cards[0]).toBe(ada);
    expect(within(ada).getByText('First attempt', { exact: false })).toBeVisible();
    const front = within(ada).getByRole('img', { name: photoAlt.front('Ada Field') });
    expect(front).toHaveAttribute('src', `/api/admin/verifications/${first.id}/photos/front`);
    expect(within(ada).getByRole('img', { name: photoAlt.selfie('Ada Field') })).toHaveAttribute(
      'src',
      `/api/admin/verifications/${first.id}/photos/selfie`,
    );
    const sam = await card('Sam Lee');
    expect(within(sam).getByText('Samuel Lee')).toBeVisible();
    expect(within(sam).getByText('2 earlier attempts', { exact: false })).toBeVisible();
    // A name changed since sending cannot be approved (the server refuses it too).
    expect(within(sam).getByRole('button', { name: APPROVE_BUTTON })).toBeDisabled();
    expect(within(ada).getByRole('button', { name: APPROVE_BUTTON })).toBeEnabled();
    expect(
      within(within(ada).getByRole('combobox', { name: REASON_LABEL }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a reason', 'Photo unreadable', 'Name does not match', 'Document expired', 'Other']);
  });

  it("'Approve' decides it; the check leaves the list", async () => {
    const check = makeCheck();
    const { calls, user } = renderPage([check]);
    await user.click(within(await card('Ada Field')).getByRole('button', { name: APPROVE_BUTTON }));
    await findToast(ID_APPROVED_TOAST);
    expect(decisions(calls)).toEqual([
      { path: `/admin/verifications/${check.id}/decision`, body: { decision: 'approve' } },
    ]);
    expect(await screen.findByText('No ID checks waiting.')).toBeVisible();
  });

  it("'Reject' needs a reason from the list, then sends it", async () => {
    const check = makeCheck();
    const { calls, user } = renderPage([check], () => ({ body: { id: check.id, status: 'rejected' } }));
    const ada = await card('Ada Field');
    await user.click(within(ada).getByRole('button', { name: REJECT_BUTTON }));
    const select = within(ada).getByRole('combobox', { name: REASON_LABEL });
    expect(select).toHaveFocus();
    expect(select).toHaveAccessibleDescription(ID_REASON_REQUIRED);
    expect(decisions(calls)).toEqual([]);
    await user.selectOptions(select, 'Document expired');
    await user.click(within(ada).getByRole('button', { name: REJECT_BUTTON }));
    await findToast(ID_REJECTED_TOAST);
    expect(decisions(calls)).toEqual([
      { path: `/admin/verifications/${check.id}/decision`, body: { decision: 'reject', reason: 'expired' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Ada Field' })).not.toBeInTheDocument());
  });

  it('a check another moderator decided a moment ago: says so, and it leaves the list', async () => {
    const { user } = renderPage([makeCheck()], () => ({
      status: 409,
      body: { code: 'id_check_state', message: ID_CHECK_ERRORS.decided },
    }));
    await user.click(within(await card('Ada Field')).getByRole('button', { name: APPROVE_BUTTON }));
    await findToast('Error', ID_CHECK_ERRORS.decided);
    expect(await screen.findByText('No ID checks waiting.')).toBeVisible();
  });
});

describe('ID checks page and link', () => {
  function renderAt(user: ReturnType<typeof sessionOf>) {
    const calls = stubApi({
      'GET /auth/session': () => ({ body: user }),
      'GET /admin/verifications': () => ({ body: { items: [makeCheck()], next_cursor: null } }),
    });
    renderWithProviders(
      <Routes>
        <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
          <Route path={PAGE_PATHS.adminVerifications} element={<AdminVerificationsRoute />} />
        </Route>
      </Routes>,
      { route: PAGE_PATHS.adminVerifications },
    );
    return calls;
  }
  const sidebar = () => screen.getByRole('complementary', { name: 'Dashboard navigation' });

  it("an admin has 'ID checks' in the sidebar after 'Disputes', and sees the queue", async () => {
    renderAt(sessionOf(SAM, true));
    expect(await screen.findByRole('heading', { level: 1, name: 'ID checks' })).toBeVisible();
    // The moderators' links come just after the first screen (app/layouts/admin-nav-links.tsx).
    const link = await within(sidebar()).findByRole('link', { name: 'ID checks' });
    expect(link).toHaveAttribute('href', PAGE_PATHS.adminVerifications);
    const names = [...sidebar().querySelectorAll('a')].map((a) => a.textContent);
    expect(names.indexOf('ID checks')).toBe(names.indexOf('Disputes') + 1);
    expect(await screen.findByRole('article', { name: 'Ada Field' })).toBeVisible();
  });

  it("anyone else has no 'ID checks' link and gets the not-found page, without asking the API", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = renderAt(sessionOf(ADA));
    expect(await screen.findByText('Oops! Page not found')).toBeVisible();
    expect(within(sidebar()).queryByRole('link', { name: 'ID checks' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/admin'))).toBe(false);
  });
});

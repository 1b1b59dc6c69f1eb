import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { SUPPORT_ALREADY_ANSWERED, SUPPORT_REPLY_SENT_TOAST, SUPPORT_TEXT, type SupportMessage } from '@shared/support';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { Component as AdminSupportRoute } from '@/app/routes/dashboard-admin-support';
import { findToast } from '@/test/find-toast';
import { ADA, SAM, uuid } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { AdminSupportPage } from './admin-support-page';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function makeMessage(over: Partial<SupportMessage> = {}): SupportMessage {
  return {
    id: uuid(),
    name: 'Pia Plus',
    email: 'pia@example.com',
    subject: 'Stops on my ride',
    message: 'Can I add a stop?\nIt is on the way.',
    created_at: '2026-11-28T09:00:00.000Z',
    user_id: uuid(),
    plan: 'plus',
    reply: null,
    replied_by: null,
    replied_at: null,
    ...over,
  };
}

const answer = (m: SupportMessage, reply: string): SupportMessage => ({
  ...m,
  reply,
  replied_by: { id: SAM.id, full_name: SAM.full_name },
  replied_at: '2026-11-29T10:00:00.000Z',
});

/** The page with GET /admin/support answering `open` (and `answered`); a reply answers with `onReply`'s answer. */
function renderPage(
  open: SupportMessage[],
  {
    answered = [],
    onReply,
  }: {
    answered?: SupportMessage[];
    onReply?: (m: SupportMessage, body: unknown) => { status?: number; body?: unknown };
  } = {},
) {
  const routes: Parameters<typeof stubApi>[0] = {
    'GET /admin/support': (call) => ({
      body: { items: call.path.includes('status=answered') ? answered : open, next_cursor: null },
    }),
  };
  for (const m of open)
    routes[`POST /admin/support/${m.id}/reply`] = (call) =>
      onReply?.(m, call.body) ?? { body: answer(m, (call.body as { reply: string }).reply) };
  const calls = stubApi(routes);
  const user = userEvent.setup();
  renderWithProviders(<AdminSupportPage />);
  return { calls, user };
}

const card = (subject: string) => screen.findByRole('article', { name: subject });
const replies = (calls: ReturnType<typeof stubApi>) =>
  calls.filter((c) => c.method === 'POST').map((c) => ({ path: c.path, body: c.body }));

describe('Support inbox (admin)', () => {
  it("shows the open messages in the server's order, members' marked with their plan", async () => {
    const { calls } = renderPage([
      makeMessage({ subject: 'Plus question' }),
      makeMessage({ subject: 'Community question', plan: 'community', name: 'Cody' }),
      makeMessage({ subject: 'Visitor question', plan: null, user_id: null, name: 'Vera', email: 'vera@example.com' }),
    ]);
    const plus = await card('Plus question');
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual([
      'Plus question',
      'Community question',
      'Visitor question',
    ]);
    expect(within(plus).getByText('Plus')).toBeVisible();
    expect(within(await card('Community question')).getByText('Community')).toBeVisible();
    const visitor = await card('Visitor question');
    expect(within(visitor).queryByText('Plus')).not.toBeInTheDocument();
    expect(within(visitor).queryByText('Community')).not.toBeInTheDocument();
    expect(within(visitor).getByRole('link', { name: 'vera@example.com' })).toHaveAttribute(
      'href',
      'mailto:vera@example.com',
    );
    expect(within(plus).getByText(/Can I add a stop\?/)).toBeVisible();
    expect(within(plus).queryByText(SUPPORT_TEXT.answered)).not.toBeInTheDocument();
    expect(within(plus).getByRole('button', { name: SUPPORT_TEXT.reply })).toHaveAccessibleDescription('Plus question');
    expect(calls.filter((c) => c.method === 'GET').map((c) => c.path)).toEqual(['/admin/support?status=open&limit=20']);
  });

  it("'Reply' writes the answer, sends it, and the message then shows 'Answered' with the answer", async () => {
    const message = makeMessage();
    const { calls, user } = renderPage([message]);
    const plus = await card('Stops on my ride');
    await user.click(within(plus).getByRole('button', { name: SUPPORT_TEXT.reply }));
    const dialog = await screen.findByRole('dialog', { name: 'Reply to Pia Plus' });
    const box = within(dialog).getByRole('textbox', { name: SUPPORT_TEXT.answerLabel });
    expect(box).toHaveFocus();
    await user.type(box, 'Yes: up to three stops with Plus.');
    await user.click(within(dialog).getByRole('button', { name: SUPPORT_TEXT.send }));
    await findToast(SUPPORT_REPLY_SENT_TOAST, 'Your answer was e-mailed to pia@example.com.');
    expect(replies(calls)).toEqual([
      { path: `/admin/support/${message.id}/reply`, body: { reply: 'Yes: up to three stops with Plus.' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const answered = await card('Stops on my ride');
    expect(within(answered).getByText(SUPPORT_TEXT.answered)).toBeVisible();
    expect(within(answered).getByText('Yes: up to three stops with Plus.')).toBeVisible();
    expect(within(answered).getByText(/Answered by Sam Lee/)).toBeVisible();
    expect(within(answered).queryByRole('button', { name: SUPPORT_TEXT.reply })).not.toBeInTheDocument();
    // The 'Reply' button is gone: focus is on the message, not lost.
    expect(within(answered).getByRole('heading', { name: 'Stops on my ride' })).toHaveFocus();
  });

  it('an empty answer is refused in the form, under the field, and nothing is sent', async () => {
    const { calls, user } = renderPage([makeMessage()]);
    await user.click(within(await card('Stops on my ride')).getByRole('button', { name: SUPPORT_TEXT.reply }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: SUPPORT_TEXT.answerLabel }), '   ');
    await user.click(within(dialog).getByRole('button', { name: SUPPORT_TEXT.send }));
    await findToast('Validation Error', 'Your answer is required');
    expect(within(dialog).getByRole('textbox', { name: SUPPORT_TEXT.answerLabel })).toHaveAccessibleDescription(
      'Your answer is required',
    );
    expect(replies(calls)).toEqual([]);
  });

  it("'Cancel' closes the dialog and gives focus back to 'Reply'", async () => {
    const { user } = renderPage([makeMessage()]);
    const reply = within(await card('Stops on my ride')).getByRole('button', { name: SUPPORT_TEXT.reply });
    await user.click(reply);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(reply).toHaveFocus());
  });

  it('a message another admin answered a moment ago: says so in the server’s words and reloads the lists', async () => {
    const { calls, user } = renderPage([makeMessage()], {
      onReply: () => ({ status: 409, body: { code: 'already_replied', message: SUPPORT_ALREADY_ANSWERED } }),
    });
    await user.click(within(await card('Stops on my ride')).getByRole('button', { name: SUPPORT_TEXT.reply }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: SUPPORT_TEXT.answerLabel }), 'Hello');
    await user.click(within(dialog).getByRole('button', { name: SUPPORT_TEXT.send }));
    await findToast('Error', SUPPORT_ALREADY_ANSWERED);
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it("the 'Answered' tab lists answered messages with their answer", async () => {
    const done = answer(makeMessage({ subject: 'Old question', plan: null }), 'Here is how.');
    const { user } = renderPage([], { answered: [done] });
    expect(await screen.findByText(SUPPORT_TEXT.emptyOpen)).toBeVisible();
    await user.click(screen.getByRole('tab', { name: SUPPORT_TEXT.answered }));
    const old = await card('Old question');
    expect(within(old).getByText('Here is how.')).toBeVisible();
    expect(within(old).getByText(SUPPORT_TEXT.answered)).toBeVisible();
    expect(within(old).queryByRole('button', { name: SUPPORT_TEXT.reply })).not.toBeInTheDocument();
  });
});

describe('Support page and link', () => {
  function renderAt(user: ReturnType<typeof sessionOf>) {
    const calls = stubApi({
      'GET /auth/session': () => ({ body: user }),
      'GET /admin/support': () => ({ body: { items: [makeMessage()], next_cursor: null } }),
    });
    renderWithProviders(
      <Routes>
        <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
          <Route path={PAGE_PATHS.adminSupport} element={<AdminSupportRoute />} />
        </Route>
      </Routes>,
      { route: PAGE_PATHS.adminSupport },
    );
    return calls;
  }
  const sidebar = () => screen.getByRole('complementary', { name: 'Dashboard navigation' });

  it("an admin has 'Support' in the sidebar after 'ID checks', and sees the inbox", async () => {
    renderAt(sessionOf(SAM, true));
    expect(await screen.findByRole('heading', { level: 1, name: SUPPORT_TEXT.title })).toBeVisible();
    // The moderators' links come just after the first screen (app/layouts/admin-nav-links.tsx).
    const link = await within(sidebar()).findByRole('link', { name: 'Support' });
    expect(link).toHaveAttribute('href', PAGE_PATHS.adminSupport);
    const names = [...sidebar().querySelectorAll('a')].map((a) => a.textContent);
    expect(names.indexOf('Support')).toBe(names.indexOf('ID checks') + 1);
    expect(await screen.findByRole('article', { name: 'Stops on my ride' })).toBeVisible();
  });

  it("anyone else has no 'Support' link and gets the not-found page, without asking the API", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = renderAt(sessionOf(ADA));
    expect(await screen.findByText('Oops! Page not found')).toBeVisible();
    expect(within(sidebar()).queryByRole('link', { name: 'Support' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/admin'))).toBe(false);
  });
});

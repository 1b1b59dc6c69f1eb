import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary } from '@shared/messages';
import { AMBASSADOR_BADGE_LABEL } from '@shared/plans';
import { ADA, SAM, uuid } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { ConversationsPage } from './conversations-page';
import { MessagesNavLink } from './messages-nav-link';

afterEach(() => vi.unstubAllGlobals());

function summary(over: Partial<ConversationSummary> = {}): ConversationSummary {
  return {
    booking_id: uuid(),
    other: ADA,
    request_title: 'Feed sacks',
    last_message: { preview: 'Is the gate open?', from_me: false, created_at: '2026-05-01T10:00:00.000Z' },
    unread_count: 0,
    state: 'open',
    activity_at: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

describe('Messages page', () => {
  it('lists conversations with the person, the request, the last message, its time and the unread count', async () => {
    const unread = summary({ unread_count: 2 });
    const quiet = summary({
      // A Community member: Community's 'Ambassador' badge after the name (issue 38).
      other: { id: uuid(), full_name: 'Bo Moss', verified: false, ambassador: true },
      request_title: 'Hay',
      last_message: null,
    });
    stubApi({ 'GET /messages/conversations': () => ({ body: { items: [unread, quiet], next_cursor: null } }) });
    renderWithProviders(<ConversationsPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
    await screen.findByText('Is the gate open?');
    const [first, second] = within(screen.getByRole('list', { name: 'Your conversations' })).getAllByRole('listitem');
    // The name links to the person's profile; the rest of the card is the link to the conversation.
    const [name, row] = within(first!).getAllByRole('link');
    expect(name).toHaveAccessibleName('Ada Field');
    expect(name).toHaveAttribute('href', `/dashboard/users/${ADA.id}`);
    expect(row).toHaveAttribute('href', `/dashboard/bookings/${unread.booking_id}#messages`);
    expect(within(second!).getByRole('link', { name: 'Bo Moss' })).toHaveAttribute(
      'href',
      `/dashboard/users/${quiet.other.id}`,
    );
    expect(within(first!).getByText('Feed sacks')).toBeVisible();
    expect(within(first!).getByText('Is the gate open?')).toBeVisible();
    expect(within(first!).getByText('2')).toHaveTextContent('2 unread');
    expect(first!.querySelector('time')).toHaveAttribute('datetime', '2026-05-01T10:00:00.000Z');
    expect(within(second!).getByRole('img', { name: AMBASSADOR_BADGE_LABEL })).toHaveTextContent('Ambassador');
    expect(within(first!).queryByRole('img', { name: AMBASSADOR_BADGE_LABEL })).not.toBeInTheDocument();
    expect(within(second!).getByText('No messages yet')).toHaveClass('text-muted-foreground');
    expect(within(second!).queryByText(/unread/)).not.toBeInTheDocument();
  });

  it("with me signed in, the other person's name has their menu (Report, Block) beside it", async () => {
    stubApi({
      'GET /auth/session': () => ({ body: sessionOf(SAM) }),
      'GET /blocks': () => ({ body: emptyPage }),
      'GET /messages/conversations': () => ({ body: { items: [summary()], next_cursor: null } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ConversationsPage />);
    const more = await screen.findByRole('button', { name: 'More actions for Ada Field' });
    await waitFor(() => expect(more).toHaveAttribute('aria-haspopup', 'menu'));
    await user.click(more);
    expect(await screen.findByRole('menuitem', { name: 'Report' })).toBeVisible();
  });

  it('says so when there are no conversations', async () => {
    stubApi({ 'GET /messages/conversations': () => ({ body: emptyPage }) });
    renderWithProviders(<ConversationsPage />);
    expect(
      await screen.findByText('No messages yet. Conversations start when a driver offers to carry a request.'),
    ).toBeVisible();
  });

  it("loads 20 at a time: 'Load more' fetches the next page by its cursor", async () => {
    const firstPage = Array.from({ length: 20 }, (_, i) => summary({ request_title: `Request ${i}` }));
    const calls = stubApi({
      'GET /messages/conversations': (call) =>
        call.path.includes('cursor=next')
          ? { body: { items: [summary({ request_title: 'Request 20' })], next_cursor: null } }
          : { body: { items: firstPage, next_cursor: 'next' } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ConversationsPage />);
    await screen.findByText('Request 19');
    expect(calls[0]!.path).toContain('limit=20');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Request 20')).toBeVisible();
    expect(screen.getAllByRole('link', { name: /Request \d+/ })).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});

describe("Sidebar 'Messages' link", () => {
  it('shows how many conversations have unread messages, in its name too', async () => {
    stubApi({ 'GET /messages/unread': () => ({ body: { conversations: 2 } }) });
    renderWithProviders(<MessagesNavLink />);
    const link = await screen.findByRole('link', { name: 'Messages, 2 unread' });
    expect(link).toHaveAttribute('href', '/dashboard/messages');
    expect(within(link).getByText('2')).toBeVisible();
  });

  it('has no badge at 0', async () => {
    const calls = stubApi({ 'GET /messages/unread': () => ({ body: { conversations: 0 } }) });
    renderWithProviders(<MessagesNavLink />);
    await waitFor(() => expect(calls).toHaveLength(1));
    const link = screen.getByRole('link', { name: 'Messages' });
    await waitFor(() => expect(link.textContent).toBe('Messages'));
  });
});

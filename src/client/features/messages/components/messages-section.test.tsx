import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationPage, Message } from '@shared/messages';
import { onlineManager } from '@tanstack/react-query';
import { addMessageToCache } from '@/lib/conversation-cache';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import { ADA, SAM, uuid } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { MessagesSection } from './messages-section';

afterEach(() => vi.unstubAllGlobals());

const BOOKING = uuid();
const PATH = `/bookings/${BOOKING}/messages`;

/** Sam Lee (the driver) is signed in; Ada Field is the other person. */
function message(over: Partial<Message> = {}): Message {
  return {
    id: uuid(),
    booking_id: BOOKING,
    sender_id: ADA.id,
    client_id: uuid(),
    body: 'Hello',
    created_at: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

function page(over: Partial<ConversationPage> = {}): ConversationPage {
  return { items: [], next_cursor: null, state: 'open', other_read_at: null, closes_at: null, ...over };
}

type Routes = Parameters<typeof stubApi>[0];

function renderSection(
  conversation: ConversationPage | (() => ConversationPage),
  routes: Routes = {},
  route = `/dashboard/bookings/${BOOKING}`,
) {
  const current = typeof conversation === 'function' ? conversation : () => conversation;
  const calls = stubApi({
    [`GET ${PATH}`]: () => ({ body: current() }),
    [`POST ${PATH}/read`]: () => ({ body: { read_at: '2026-05-01T12:00:00.000Z' } }),
    ...routes,
  });
  const user = userEvent.setup();
  const rendered = renderWithProviders(
    <MessagesSection bookingId={BOOKING} myId={SAM.id} otherName={ADA.full_name} />,
    {
      route,
    },
  );
  return { calls, user, client: rendered.client };
}

const posts = (calls: ReturnType<typeof stubApi>) => calls.filter((c) => c.method === 'POST' && c.path === PATH);
const reads = (calls: ReturnType<typeof stubApi>) => calls.filter((c) => c.path === `${PATH}/read`);
const bubbles = () =>
  within(screen.getByRole('list', { name: 'Messages' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

/** The server's answer to a send: the message as stored, with the client's id. */
const stored = (call: { body: unknown }) => {
  const { body, client_id } = call.body as { body: string; client_id: string };
  return message({ sender_id: SAM.id, body, client_id, created_at: '2026-05-01T11:00:00.000Z' });
};

describe('Messages section', () => {
  it('shows the conversation oldest first, with who wrote and when, and marks it read', async () => {
    const { calls } = renderSection(
      page({
        items: [
          message({ body: 'See you at 5', sender_id: SAM.id, created_at: '2026-05-01T10:05:00.000Z' }),
          message({ body: 'Is the gate open?', created_at: '2026-05-01T10:00:00.000Z' }),
        ],
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Messages' })).toBeVisible();
    await screen.findByText('Is the gate open?');
    const items = bubbles();
    expect(items[0]).toMatch(/^Ada Field.*Is the gate open\?$/);
    expect(items[1]).toMatch(/^You.*See you at 5$/);
    expect(screen.getAllByRole('listitem')[0]!.querySelector('time')).toHaveAttribute(
      'datetime',
      '2026-05-01T10:00:00.000Z',
    );
    expect(screen.getByLabelText('Message')).toBeVisible();
    await waitFor(() => expect(reads(calls)).toHaveLength(1));
  });

  it("opened with '#messages' (from the Messages page), the section takes the focus once loaded", async () => {
    renderSection(page({ items: [message()] }), {}, `/dashboard/bookings/${BOOKING}#messages`);
    await screen.findByText('Hello');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Messages' })).toHaveFocus());
  });

  it('keeps text as plain text: markup and links are shown as typed', async () => {
    renderSection(page({ items: [message({ body: '<b>hi</b> https://example.com\nline two' })] }));
    const text = await screen.findByText(/<b>hi<\/b>/);
    expect(text.textContent).toBe('<b>hi</b> https://example.com\nline two');
    expect(text).toHaveClass('whitespace-pre-wrap');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it("'Load earlier messages' fetches the older page and puts it above", async () => {
    const { calls, user } = renderSection(page(), {
      [`GET ${PATH}`]: (call) =>
        call.path.includes('cursor=c1')
          ? { body: page({ items: [message({ body: 'Oldest' })] }) }
          : { body: page({ items: [message({ body: 'Newest' })], next_cursor: 'c1' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Load earlier messages' }));
    await waitFor(() => expect(bubbles()).toHaveLength(2));
    expect(bubbles()[0]).toMatch(/Oldest$/);
    expect(calls.some((c) => c.path.startsWith(`${PATH}?`) && c.path.includes('cursor=c1'))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument();
  });

  it("'Seen' under my last message once the other person's read mark reaches it", async () => {
    const mine = (created_at: string, body: string) => message({ sender_id: SAM.id, created_at, body });
    const items = [mine('2026-05-01T10:10:00.000Z', 'Second'), mine('2026-05-01T10:00:00.000Z', 'First')];
    const { client } = renderSection(page({ items, other_read_at: '2026-05-01T10:05:00.000Z' }));
    await screen.findByText('Second');
    expect(screen.queryByText('Seen')).not.toBeInTheDocument();
    act(() =>
      client.setQueryData(['messages', 'conversation', BOOKING], {
        pages: [page({ items, other_read_at: '2026-05-01T10:10:00.000Z' })],
        pageParams: [null],
      }),
    );
    const seen = await screen.findByText('Seen');
    expect(seen.closest('li')).toHaveTextContent('Second');
  });

  it('Enter sends, Shift+Enter starts a new line; the message shows at once, then once as stored', async () => {
    let answer!: () => void;
    const { calls, user } = renderSection(page(), {
      [`POST ${PATH}`]: (call) =>
        new Promise((resolve) => (answer = () => resolve({ status: 201, body: stored(call) }))),
    });
    const box = await screen.findByLabelText('Message');
    await user.type(box, 'Gate is open{Shift>}{Enter}{/Shift}Come in{Enter}');
    expect(box).toHaveValue('');
    expect(posts(calls)).toHaveLength(1);
    const sent = posts(calls)[0]!.body as { body: string; client_id: string };
    expect(sent.body).toBe('Gate is open\nCome in');
    expect(sent.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByText('Sending…')).toBeVisible();
    expect(bubbles()).toHaveLength(1);
    await act(async () => answer());
    await waitFor(() => expect(screen.queryByText('Sending…')).not.toBeInTheDocument());
    expect(bubbles()).toHaveLength(1);
    expect(bubbles()[0]).toMatch(/^You.*Gate is open\nCome in$/);
  });

  it('the live echo arriving before the answer never doubles the message', async () => {
    let answer!: () => void;
    let sentCall!: { body: unknown };
    const { client, user } = renderSection(page(), {
      [`POST ${PATH}`]: (call) => {
        sentCall = call;
        return new Promise((resolve) => (answer = () => resolve({ status: 201, body: stored(call) })));
      },
    });
    await user.type(await screen.findByLabelText('Message'), 'On my way{Enter}');
    await screen.findByText('Sending…');
    act(() => addMessageToCache(client, BOOKING, stored(sentCall)));
    await waitFor(() => expect(screen.queryByText('Sending…')).not.toBeInTheDocument());
    expect(bubbles()).toHaveLength(1);
    await act(async () => answer());
    expect(bubbles()).toHaveLength(1);
    expect(screen.queryByText('Sending…')).not.toBeInTheDocument();
  });

  it("blank text cannot be sent: 'Send' is disabled and Enter does nothing", async () => {
    const { calls, user } = renderSection(page());
    const box = await screen.findByLabelText('Message');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(box, '   {Enter}');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(posts(calls)).toHaveLength(0);
  });

  it("counts characters from 1800 on, and refuses more than 2000 with the server's message", async () => {
    const { calls, user } = renderSection(page());
    const box = await screen.findByLabelText('Message');
    fireEvent.change(box, { target: { value: 'x'.repeat(1799) } });
    expect(screen.queryByText(/\/ 2000/)).not.toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'x'.repeat(1800) } });
    const counter = screen.getByText('1800 / 2000');
    expect(counter).toHaveAttribute('aria-live', 'polite');
    fireEvent.change(box, { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2001 / 2000')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('Message must be less than 2000 characters');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Message must be less than 2000 characters')).toHaveLength(2);
    expect(posts(calls)).toHaveLength(0);
    expect(box).toHaveValue('x'.repeat(2001));
  });

  it("a send that fails is marked 'Not sent. Retry'; the retry sends the same client_id, and it shows once", async () => {
    let attempt = 0;
    const { calls, user } = renderSection(page(), {
      [`POST ${PATH}`]: (call) => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return { status: 201, body: stored(call) };
      },
    });
    await user.type(await screen.findByLabelText('Message'), 'Running late{Enter}');
    const retry = await screen.findByRole('button', { name: 'Not sent. Retry' });
    expect(await screen.findByText('No connection. Please try again.')).toBeVisible();
    await user.click(retry);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Not sent. Retry' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByText('Sending…')).not.toBeInTheDocument());
    const [first, second] = posts(calls).map((c) => c.body as { client_id: string });
    expect(second!.client_id).toBe(first!.client_id);
    expect(bubbles()).toHaveLength(1);
  });

  it("a message written with no signal shows 'Waiting to send', and is sent once when the signal returns", async () => {
    const onServer: Message[] = [];
    const { calls, user, client } = renderSection(() => page({ items: onServer }), {
      [`POST ${PATH}`]: (call) => {
        onServer.unshift(stored(call));
        return { status: 201, body: onServer[0] };
      },
    });
    client.setQueryData(queryKeys.session, sessionOf(SAM));
    const stop = sendQueue.start(client);
    try {
      await screen.findByLabelText('Message');
      act(() => onlineManager.setOnline(false));
      await user.type(screen.getByLabelText('Message'), 'At the gate{Enter}');
      expect(await screen.findByText('Waiting to send')).toBeVisible();
      expect(bubbles()).toHaveLength(1);
      expect(posts(calls)).toHaveLength(0);
      act(() => onlineManager.setOnline(true));
      await waitFor(() => expect(screen.queryByText('Waiting to send')).not.toBeInTheDocument());
      expect(posts(calls)).toHaveLength(1);
      expect(bubbles()).toHaveLength(1);
      expect(bubbles()[0]).toContain('At the gate');
    } finally {
      stop();
      await sendQueue.clear();
    }
  });

  it('a refusal from the write limit toasts to wait', async () => {
    const { user } = renderSection(page(), {
      [`POST ${PATH}`]: () => ({ status: 429, body: { code: 'too_many_requests', message: 'Slow down' } }),
    });
    await user.type(await screen.findByLabelText('Message'), 'Hi{Enter}');
    expect(await screen.findByText("You're doing that too often. Please wait a moment.")).toBeVisible();
    expect(screen.getByRole('button', { name: 'Not sent. Retry' })).toBeVisible();
  });

  it.each([
    ['blocked', 403, "You can't contact this person."],
    ['conversation_closed', 409, 'This conversation is closed.'],
  ] as const)('a %s refusal shows its message and reloads the conversation', async (code, status, text) => {
    let state: ConversationPage['state'] = 'open';
    const { calls, user } = renderSection(() => page({ state }), {
      [`POST ${PATH}`]: () => {
        state = code === 'blocked' ? 'blocked' : 'closed';
        return { status, body: { code, message: text } };
      },
    });
    await user.type(await screen.findByLabelText('Message'), 'Hello?{Enter}');
    await waitFor(() => expect(screen.queryByLabelText('Message')).not.toBeInTheDocument());
    expect(screen.getAllByText(text).length).toBeGreaterThanOrEqual(2); // the toast and the note
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2);
    // Nobody can write here now: the failed message stays, without a retry.
    expect(screen.getByText('Not sent.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Not sent. Retry' })).not.toBeInTheDocument();
  });

  it.each([
    ['closed', 'This conversation is closed.'],
    ['blocked', "You can't contact this person."],
  ] as const)('a %s conversation stays readable, with a note instead of the form', async (state, note) => {
    renderSection(page({ state, items: [message({ body: 'Thanks!' })] }));
    expect(await screen.findByText('Thanks!')).toBeVisible();
    expect(screen.getByText(note)).toBeVisible();
    expect(screen.queryByLabelText('Message')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('a new message from the other person is announced and marks the conversation read again', async () => {
    const { calls, client } = renderSection(page({ items: [message({ body: 'Hello' })] }));
    await screen.findByText('Hello');
    await waitFor(() => expect(reads(calls)).toHaveLength(1));
    const live = document.querySelector('.sr-only[aria-live="polite"]')!;
    expect(live).toHaveTextContent('');
    act(() => addMessageToCache(client, BOOKING, message({ body: 'Are you near?' })));
    expect(await screen.findAllByText('Are you near?')).toHaveLength(1);
    expect(live).toHaveTextContent('Ada Field: Are you near?');
    await waitFor(() => expect(reads(calls)).toHaveLength(2));
    // My own messages do not mark it read again.
    act(() => addMessageToCache(client, BOOKING, message({ sender_id: SAM.id, body: 'Yes' })));
    await screen.findByText('Yes');
    expect(reads(calls)).toHaveLength(2);
  });
});

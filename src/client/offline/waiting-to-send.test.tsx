import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from '@/components/ui/button';
import { usePostRide } from '@/features/rides/api/post-ride';
import { QUEUED_MESSAGE } from '@/lib/api-client';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import { ADA } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { WaitingToSend } from './waiting-to-send';

let stop = () => {};
afterEach(async () => {
  stop();
  await sendQueue.clear();
  act(() => onlineManager.setOnline(true));
  vi.unstubAllGlobals();
});

const RIDE = {
  origin: 'Oakville',
  origin_place_id: null,
  destination: 'Millbrook',
  destination_place_id: null,
  departure_date: '2026-12-01',
  departure_time: null,
  available_space: null,
  notes: null,
  stops: [],
};

/** The Post Ride button of the form, reduced to its mutation (the form's own tests cover the fields). */
function PostRide() {
  const post = usePostRide();
  return <Button onClick={() => post.mutate(RIDE)}>Post Ride</Button>;
}

function renderPage() {
  const view = renderWithProviders(
    <>
      <WaitingToSend userId={ADA.id} />
      <PostRide />
    </>,
  );
  view.client.setQueryData(queryKeys.session, sessionOf(ADA));
  stop = sendQueue.start(view.client);
  return view;
}

describe("'Waiting to send'", () => {
  it("a ride posted with no signal is saved, listed with 'Discard', and posted once when the signal returns", async () => {
    const calls = stubApi({ 'POST /rides': () => ({ status: 201, body: { id: 'r1' } }) });
    renderPage();
    expect(screen.queryByRole('heading', { name: /Waiting to send/ })).toBeNull();
    act(() => onlineManager.setOnline(false));
    await userEvent.click(screen.getByRole('button', { name: 'Post Ride' }));
    expect(await screen.findByText(QUEUED_MESSAGE)).toBeVisible();
    const section = screen.getByRole('region', { name: 'Waiting to send (1)' });
    expect(within(section).getByText('Post ride Oakville → Millbrook')).toBeVisible();
    expect(within(section).getByRole('button', { name: 'Discard: Post ride Oakville → Millbrook' })).toBeVisible();
    expect(calls).toHaveLength(0);

    act(() => onlineManager.setOnline(true));
    expect(await screen.findByText('Ride posted successfully')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('region', { name: /Waiting to send/ })).toBeNull());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /rides']);
  });

  it('Discard removes a waiting change; it is never sent', async () => {
    const calls = stubApi({ 'POST /rides': () => ({ status: 201, body: { id: 'r1' } }) });
    renderPage();
    act(() => onlineManager.setOnline(false));
    await userEvent.click(screen.getByRole('button', { name: 'Post Ride' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard: Post ride Oakville → Millbrook' }));
    expect(screen.queryByRole('region', { name: /Waiting to send/ })).toBeNull();
    act(() => onlineManager.setOnline(true));
    await sendQueue.flush();
    expect(calls).toHaveLength(0);
  });

  it("shows only the signed-in person's changes", async () => {
    stubApi({});
    const view = renderPage();
    act(() => onlineManager.setOnline(false));
    await userEvent.click(screen.getByRole('button', { name: 'Post Ride' }));
    expect(await screen.findByRole('region', { name: 'Waiting to send (1)' })).toBeVisible();
    view.rerender(<WaitingToSend userId="someone-else" />);
    expect(screen.queryByRole('region', { name: /Waiting to send/ })).toBeNull();
  });
});

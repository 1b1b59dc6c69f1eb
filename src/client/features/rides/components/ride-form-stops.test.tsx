import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '@shared/plans';
import { ADA, makeRide } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { SPRINGFIELD_IL, suggestFrom } from '@/test/places';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { MyRides } from './my-rides';

afterEach(() => vi.unstubAllGlobals());

const RIDE_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e';

function setup(plan: Plan, mine: object = emptyPage) {
  const calls = stubApi({
    'GET /auth/session': () => ({ body: sessionOf(ADA, false, plan) }),
    'GET /rides/mine': () => ({ body: mine }),
    'GET /places': ({ path }) => suggestFrom(path),
    'POST /rides': ({ body }) => ({ status: 201, body: makeRide(body as object) }),
    [`PUT /rides/${RIDE_ID}/stops`]: ({ body }) => ({
      body: makeRide({
        id: RIDE_ID,
        stops: (body as { stops: { label: string }[] }).stops.map((s) => ({ label: s.label, point: null })),
      }),
    }),
  });
  renderWithProviders(<MyRides />);
  return { calls, user: userEvent.setup() };
}

async function openForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Post New Ride' }));
  await user.type(screen.getByRole('combobox', { name: 'Origin' }), 'Oakville');
  await user.type(screen.getByRole('combobox', { name: 'Destination' }), 'Millbrook');
  fireEvent.change(screen.getByLabelText('Departure Date'), { target: { value: '2099-11-21' } });
}

describe('Post a New Ride: stops', () => {
  it('a Plus member adds up to 3 stops by keyboard, removes one, and posts the rest in order', async () => {
    const { calls, user } = setup('plus');
    await openForm(user);
    expect(screen.queryByRole('link', { name: 'Add stops with Plus or Community.' })).toBeNull();
    const stops = screen.getByRole('group', { name: 'Stops' });

    // From Destination, Tab reaches 'Add a stop'; the new stop's field takes the focus.
    screen.getByRole('combobox', { name: 'Destination' }).focus();
    await user.tab();
    expect(within(stops).getByRole('button', { name: 'Add a stop' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('combobox', { name: 'Stop 1' })).toHaveFocus();
    await user.keyboard('Springf');
    await screen.findByRole('option', { name: 'Springfield, IL 62701' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByRole('combobox', { name: 'Stop 1' })).toHaveValue('Springfield, IL');

    await user.click(within(stops).getByRole('button', { name: 'Add a stop' }));
    await user.keyboard('Old mill');
    await user.click(within(stops).getByRole('button', { name: 'Add a stop' }));
    expect(screen.getByRole('combobox', { name: 'Stop 3' })).toHaveFocus();
    await user.keyboard('Miller farm');
    // Three is the most: no more 'Add a stop'.
    expect(within(stops).queryByRole('button', { name: 'Add a stop' })).toBeNull();

    await user.click(within(stops).getByRole('button', { name: 'Remove stop 2' }));
    expect(within(stops).getByRole('button', { name: 'Add a stop' })).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'Stop 2' })).toHaveValue('Miller farm');
    expect(screen.queryByRole('combobox', { name: 'Stop 3' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Post Ride' }));
    expect(await screen.findByText('Ride posted successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      origin: 'Oakville',
      destination: 'Millbrook',
      stops: [
        { label: 'Springfield, IL', place_id: SPRINGFIELD_IL.id },
        { label: 'Miller farm', place_id: null },
      ],
    });
    // Much typing, by keyboard: more than the default 5 s on a busy machine.
  }, 20_000);

  it('an empty stop is a validation error, shown under it and as the toast', async () => {
    const { calls, user } = setup('community');
    await openForm(user);
    await user.click(screen.getByRole('button', { name: 'Add a stop' }));
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Stop 1' })).toHaveAccessibleDescription('Stop is required');
    expect(calls.find((c) => c.method === 'POST')).toBeUndefined();
  });

  it('a Free member sees the line to the plans instead, and posts no stops', async () => {
    const { calls, user } = setup('free');
    await openForm(user);
    expect(screen.queryByRole('button', { name: 'Add a stop' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Add stops with Plus or Community.' })).toHaveAttribute('href', '/pricing');
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));
    expect(await screen.findByText('Ride posted successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ stops: [] });
  });
});

describe('My Rides: a ride with stops', () => {
  const ride = makeRide({
    id: RIDE_ID,
    origin: 'Oakville',
    destination: 'Millbrook',
    stops: [
      { label: 'Springfield, IL', point: { place_id: SPRINGFIELD_IL.id, lat: 39.8, lon: -89.64 } },
      { label: 'Miller farm', point: null },
    ],
  });

  it('lists the stops in order', async () => {
    setup('free', { items: [ride], next_cursor: null });
    const list = await screen.findByRole('list', { name: 'Stops' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace('→', '').trim()),
    ).toEqual(['Springfield, IL', 'Miller farm']);
    expect(list).toHaveTextContent('Springfield, IL → Miller farm');
    // A Free member keeps the ride's stops but has no 'Edit stops'.
    expect(screen.queryByRole('button', { name: /Edit stops/ })).toBeNull();
  });

  it("a Free member's ride that kept its stops: 'Remove stops' takes them all off, after asking", async () => {
    const { calls, user } = setup('free', { items: [ride], next_cursor: null });
    await user.click(await screen.findByRole('button', { name: 'Remove stops: Oakville → Millbrook' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove the stops?' });
    expect(confirm).toHaveTextContent('Your ride goes straight from Oakville to Millbrook again.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove stops' }));
    expect(await screen.findByText('Stops saved')).toBeVisible();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ stops: [] });
  });

  it("'Edit stops' replaces them: the ride's stops as they are, one removed, one added", async () => {
    const { calls, user } = setup('plus', { items: [ride], next_cursor: null });
    await user.click(await screen.findByRole('button', { name: 'Edit stops: Oakville → Millbrook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit stops' });
    expect(within(dialog).getByRole('combobox', { name: 'Stop 1' })).toHaveValue('Springfield, IL');
    expect(within(dialog).getByRole('combobox', { name: 'Stop 2' })).toHaveValue('Miller farm');
    await user.click(within(dialog).getByRole('button', { name: 'Remove stop 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add a stop' }));
    await user.keyboard('Old mill');
    await user.click(within(dialog).getByRole('button', { name: 'Save stops' }));
    expect(await screen.findByText('Stops saved')).toBeVisible();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      stops: [
        { label: 'Miller farm', place_id: null },
        { label: 'Old mill', place_id: null },
      ],
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  }, 20_000);
});

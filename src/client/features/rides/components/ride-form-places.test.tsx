import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PICK_SUGGESTION_HINT } from '@shared/places';
import { makeRide } from '@/test/factories';
import { DECATUR_IL, SPRINGFIELD_IL, suggestFrom } from '@/test/places';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { MyRides } from './my-rides';

afterEach(() => vi.unstubAllGlobals());

function setup() {
  const calls = stubApi({
    'GET /rides/mine': () => ({ body: emptyPage }),
    'GET /places': ({ path }) => suggestFrom(path),
    'POST /rides': ({ body }) => ({ status: 201, body: makeRide(body as object) }),
  });
  renderWithProviders(<MyRides />);
  return { calls, user: userEvent.setup() };
}

describe('Post a New Ride with places', () => {
  it('Origin and Destination suggest places; the chosen ones go with their text, by keyboard only', async () => {
    const { calls, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Post New Ride' }));
    const origin = screen.getByRole('combobox', { name: 'Origin' });
    expect(origin).toHaveFocus();
    await user.keyboard('Springf');
    await screen.findByRole('option', { name: 'Springfield, IL 62701' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(origin).toHaveValue('Springfield, IL');
    await user.tab();
    await user.keyboard('Decat');
    await screen.findByRole('option', { name: 'Decatur, IL 62521' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByRole('combobox', { name: 'Destination' })).toHaveValue('Decatur, IL');
    fireEvent.change(screen.getByLabelText('Departure Date'), { target: { value: '2099-11-21' } });
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));

    expect(await screen.findByText('Ride posted successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      origin: 'Springfield, IL',
      origin_place_id: SPRINGFIELD_IL.id,
      destination: 'Decatur, IL',
      destination_place_id: DECATUR_IL.id,
    });
  });

  it('free text is posted with no place, and the form says it cannot be matched by distance', async () => {
    const { calls, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Post New Ride' }));
    await user.type(screen.getByLabelText('Origin'), 'Miller farm, County Rd 9');
    expect(screen.getByLabelText('Origin')).toHaveAccessibleDescription(PICK_SUGGESTION_HINT);
    await user.type(screen.getByLabelText('Destination'), 'Decat');
    await user.click(await screen.findByRole('option', { name: 'Decatur, IL 62521' }));
    // Changing a chosen place's text makes it free text again.
    await user.type(screen.getByLabelText('Destination'), ' station');
    expect(screen.getByLabelText('Destination')).toHaveAccessibleDescription(PICK_SUGGESTION_HINT);
    fireEvent.change(screen.getByLabelText('Departure Date'), { target: { value: '2099-11-21' } });
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));

    expect(await screen.findByText('Ride posted successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      origin: 'Miller farm, County Rd 9',
      origin_place_id: null,
      destination: 'Decatur, IL station',
      destination_place_id: null,
    });
  });
});

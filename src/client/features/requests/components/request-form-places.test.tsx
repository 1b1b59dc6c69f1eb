import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PICK_SUGGESTION_HINT, PLACE_NOT_FOUND } from '@shared/places';
import { makeRequest } from '@/test/factories';
import { SPRINGFIELD_IL, suggestFrom } from '@/test/places';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { MyRequests } from './my-requests';

afterEach(() => vi.unstubAllGlobals());

function setup(post: (body: unknown) => { status: number; body: unknown }) {
  const calls = stubApi({
    'GET /requests/mine': () => ({ body: emptyPage }),
    'GET /places': ({ path }) => suggestFrom(path),
    'POST /requests': ({ body }) => post(body),
  });
  renderWithProviders(<MyRequests />);
  return { calls, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Create Request' }));
  await user.type(screen.getByLabelText('Title'), 'Feed from the co-op');
  await user.type(screen.getByLabelText('Description'), 'Two bags');
  await user.type(screen.getByRole('combobox', { name: 'Pickup Location' }), 'spring');
  await user.click(await screen.findByRole('option', { name: 'Springfield, IL 62701' }));
  await user.type(screen.getByRole('combobox', { name: 'Delivery Location' }), 'Hill Farm, Rt 4');
}

describe('Create a Delivery Request with places', () => {
  it('sends the chosen pickup place and a free-text delivery with no place, with the hint under it', async () => {
    const { calls, user } = setup((body) => ({ status: 201, body: makeRequest(body as object) }));
    await fill(user);
    expect(screen.getByLabelText('Pickup Location')).toHaveValue('Springfield, IL');
    expect(screen.getByLabelText('Pickup Location')).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText('Delivery Location')).toHaveAccessibleDescription(PICK_SUGGESTION_HINT);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Request created successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      pickup_location: 'Springfield, IL',
      pickup_place_id: SPRINGFIELD_IL.id,
      delivery_location: 'Hill Farm, Rt 4',
      delivery_place_id: null,
    });
  });

  it("a place the server no longer knows is refused with the contract's message, and the form keeps its text", async () => {
    const { user } = setup(() => ({ status: 400, body: { code: 'validation_error', message: PLACE_NOT_FOUND } }));
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    // The toast is in the page before its fade-in starts (sonner marks it mounted in an effect): wait for that.
    await waitFor(() => expect(screen.getByText(PLACE_NOT_FOUND)).toBeVisible());
    expect(screen.getByLabelText('Pickup Location')).toHaveValue('Springfield, IL');
  });
});

import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryRequest } from '@shared/marketplace';
import { makeRequest } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { MyRequests } from './my-requests';

afterEach(() => vi.unstubAllGlobals());

async function openForm() {
  const user = userEvent.setup();
  renderWithProviders(<MyRequests />);
  await user.click(await screen.findByRole('button', { name: 'Create Request' }));
  return user;
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Title'), 'Feed from the co-op');
  await user.type(screen.getByLabelText('Description'), 'Two bags');
  await user.type(screen.getByLabelText('Pickup Location'), 'Co-op');
  await user.type(screen.getByLabelText('Delivery Location'), 'Hill Farm');
}

describe('My Requests', () => {
  it('shows the empty state and toggles the "Create a Delivery Request" form', async () => {
    stubApi({ 'GET /requests/mine': () => ({ body: emptyPage }) });
    const user = userEvent.setup();
    renderWithProviders(<MyRequests />);
    expect(await screen.findByText('No requests yet. Click "Create Request" to get started!')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    expect(screen.getByRole('form', { name: 'Create a Delivery Request' })).toBeVisible();
    expect(screen.getByLabelText('Title')).toHaveFocus();
    expect(screen.getByLabelText('Needed By (optional)')).toHaveAttribute('type', 'date');
    const compensation = screen.getByLabelText('Compensation (optional)');
    expect(compensation).toHaveAttribute('type', 'number');
    expect(compensation).toHaveAttribute('step', '0.01');
    expect(compensation).toHaveAttribute('placeholder', '0.00');
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('reports the first failing rule in schema order', async () => {
    const calls = stubApi({ 'GET /requests/mine': () => ({ body: emptyPage }) });
    const user = await openForm();
    await user.type(screen.getByLabelText('Description'), 'Two bags');
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Title is required')).toHaveLength(2);
    expect(screen.getByLabelText('Pickup Location')).toHaveAccessibleDescription('Pickup location is required');
    expect(screen.getByLabelText('Delivery Location')).toHaveAccessibleDescription('Delivery location is required');
    expect(screen.getByLabelText('Description')).not.toHaveAttribute('aria-invalid');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it.each([
    ['12.345', 'Compensation must be an amount like 12.50, with at most 2 decimal places'],
    ['10000.01', 'Compensation must be between 0 and 10,000'],
    ['-1', 'Compensation must be an amount like 12.50, with at most 2 decimal places'],
  ])('refuses compensation %s', async (amount, message) => {
    stubApi({ 'GET /requests/mine': () => ({ body: emptyPage }) });
    const user = await openForm();
    await fillRequired(user);
    fireEvent.change(screen.getByLabelText('Compensation (optional)'), { target: { value: amount } });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findAllByText(message)).toHaveLength(2);
  });

  it('refuses a needed-by date in the past', async () => {
    stubApi({ 'GET /requests/mine': () => ({ body: emptyPage }) });
    const user = await openForm();
    await fillRequired(user);
    fireEvent.change(screen.getByLabelText('Needed By (optional)'), { target: { value: '2001-02-03' } });
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findAllByText('Needed-by date cannot be in the past')).toHaveLength(2);
  });

  it('creates a request and shows it with $ and 2 decimals, needed-by date and status', async () => {
    let items: DeliveryRequest[] = [];
    const calls = stubApi({
      'GET /requests/mine': () => ({ body: { items, next_cursor: null } }),
      'POST /requests': ({ body }) => {
        const b = body as { compensation: string };
        items = [makeRequest({ ...(body as object), compensation: b.compensation, is_own: true })];
        return { status: 201, body: items[0] };
      },
    });
    const user = await openForm();
    await fillRequired(user);
    fireEvent.change(screen.getByLabelText('Needed By (optional)'), { target: { value: '2099-07-04' } });
    await user.type(screen.getByLabelText('Compensation (optional)'), '12.5');
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));

    expect(await screen.findByText('Request created successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      title: 'Feed from the co-op',
      description: 'Two bags',
      pickup_location: 'Co-op',
      delivery_location: 'Hill Farm',
      needed_by_date: '2099-07-04',
      compensation: '12.5',
      // Typed, not chosen from suggestions.
      pickup_place_id: null,
      delivery_place_id: null,
    });
    const card = within(await screen.findByRole('list', { name: 'Your requests' }));
    expect(card.getByRole('heading', { name: 'Feed from the co-op' })).toBeVisible();
    expect(card.getByText('Co-op → Hill Farm')).toBeVisible();
    expect(card.getByText('Needed by: July 4, 2099')).toBeVisible();
    expect(card.getByText('Compensation: $12.50')).toBeVisible();
    expect(card.getByText('Open')).toBeVisible();
  });

  // A long form typed key by key: on a busy 2-core run it takes seconds (as the payouts form's test allows).
  it('shows the server message for a refused create and keeps the form filled', { timeout: 15_000 }, async () => {
    stubApi({
      'GET /requests/mine': () => ({ body: emptyPage }),
      'POST /requests': () => ({ status: 400, body: { code: 'validation_error', message: 'Title is required' } }),
    });
    const user = await openForm();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Validation Error', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.getByLabelText('Title')).toHaveValue('Feed from the co-op');
  });

  it('a failed load says "Failed to fetch requests" and offers a retry', async () => {
    stubApi({ 'GET /requests/mine': () => ({ status: 500, body: { code: 'internal_error', message: 'Oops.' } }) });
    renderWithProviders(<MyRequests />);
    expect(await screen.findByText('Failed to fetch requests')).toBeVisible();
    expect(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  it('deletes a request after confirmation', async () => {
    const request = makeRequest({ is_own: true });
    let items = [request];
    stubApi({
      'GET /requests/mine': () => ({ body: { items, next_cursor: null } }),
      [`DELETE /requests/${request.id}`]: () => {
        items = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRequests />);
    await user.click(await screen.findByRole('button', { name: 'Delete request Feed from the co-op' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Request deleted successfully')).toBeVisible();
    expect(await screen.findByText('No requests yet. Click "Create Request" to get started!')).toBeVisible();
  });

  it("each card shows its offer count, its status and a 'View' link to its page", async () => {
    const none = makeRequest({ title: 'Nobody yet', is_own: true, offer_count: 0 });
    const one = makeRequest({ title: 'One driver', is_own: true, offer_count: 1 });
    const three = makeRequest({ title: 'Three drivers', is_own: true, offer_count: 3 });
    const matched = makeRequest({ title: 'Driver chosen', is_own: true, status: 'matched', offer_count: 0 });
    const done = makeRequest({ title: 'Delivered', is_own: true, status: 'completed', offer_count: 0 });
    stubApi({
      'GET /requests/mine': () => ({ body: { items: [none, one, three, matched, done], next_cursor: null } }),
    });
    renderWithProviders(<MyRequests />);
    const card = async (title: string) => within((await screen.findByRole('heading', { name: title })).closest('li')!);

    expect((await card('Nobody yet')).getByText('No offers yet')).toBeVisible();
    expect((await card('One driver')).getByText('1 offer')).toBeVisible();
    const threeCard = await card('Three drivers');
    expect(threeCard.getByText('3 offers')).toBeVisible();
    expect(threeCard.getByText('Open')).toBeVisible();
    expect(threeCard.getByRole('link', { name: 'View request Three drivers' })).toHaveAttribute(
      'href',
      `/dashboard/requests/${three.id}`,
    );
    // Once a driver is chosen, the status says it; no count of offers that are no longer pending.
    const matchedCard = await card('Driver chosen');
    expect(matchedCard.getByText('Matched')).toHaveClass('bg-blue-100');
    expect(matchedCard.queryByText(/offer/)).not.toBeInTheDocument();
    expect((await card('Delivered')).getByText('Completed')).toHaveClass('bg-green-100');
  });

  it('deleting a request with a confirmed booking says to cancel the booking first', async () => {
    const request = makeRequest({ is_own: true, status: 'matched' });
    stubApi({
      'GET /requests/mine': () => ({ body: { items: [request], next_cursor: null } }),
      [`DELETE /requests/${request.id}`]: () => ({
        status: 409,
        body: {
          code: 'confirmed_booking_exists',
          message: 'Cancel the confirmed booking before deleting this request.',
        },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRequests />);
    await user.click(await screen.findByRole('button', { name: 'Delete request Feed from the co-op' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Cancel the confirmed booking before deleting this request.')).toBeVisible();
    expect(screen.queryByText('Failed to delete request')).not.toBeInTheDocument();
  });
});

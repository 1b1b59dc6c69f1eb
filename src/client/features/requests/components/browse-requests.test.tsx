import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AMBASSADOR_BADGE_LABEL } from '@shared/plans';
import { PRIORITY_BADGE_LABEL } from '@/components/priority-badge';
import { ADA, makeRequest, SAM } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BrowseRequests } from './browse-requests';

afterEach(() => vi.unstubAllGlobals());

const theirs = makeRequest({
  title: 'Parcel to the post office',
  requester_name: 'Ada Field',
  requester_id: ADA.id,
  requester_rating: { count: 3, average: 4.7 },
  needed_by_date: '2099-01-15',
  compensation: '1234.5',
});
const own = makeRequest({
  title: 'My own errand',
  requester_name: 'Sam Lee',
  requester_id: SAM.id,
  is_own: true,
});

function renderPage(accept: () => { status?: number; body?: unknown }) {
  const calls = stubApi({
    'GET /requests/browse': () => ({ body: { items: [theirs, own], next_cursor: null } }),
    'POST /bookings': accept,
  });
  renderWithProviders(<BrowseRequests />);
  return calls;
}

describe('Browse Delivery Requests', () => {
  it('shows requester (linking to their profile) and their rating, details and Accept; own requests say "Your request" instead', async () => {
    renderPage(() => ({ status: 201 }));
    const card = within((await screen.findByRole('heading', { name: 'Parcel to the post office' })).closest('li')!);
    expect(card.getByText(/^Requested by/)).toHaveTextContent('Requested by Ada Field');
    expect(card.getByRole('link', { name: 'Ada Field' })).toHaveAttribute('href', `/dashboard/users/${ADA.id}`);
    expect(card.getByText('4.7 ★ · 3 reviews')).toBeVisible();
    expect(card.getByText('Rated 4.7 out of 5 from 3 reviews')).toHaveClass('sr-only');
    expect(card.getByText('Needed by: January 15, 2099')).toBeVisible();
    expect(card.getByText('Compensation: $1,234.50')).toBeVisible();
    expect(card.getByRole('button', { name: 'Accept request Parcel to the post office' })).toBeVisible();

    const mine = within(screen.getByRole('heading', { name: 'My own errand' }).closest('li')!);
    expect(mine.getByText('Your request')).toBeVisible();
    expect(mine.queryByRole('button')).not.toBeInTheDocument();
    expect(mine.getByRole('link', { name: 'Sam Lee' })).toHaveAttribute('href', `/dashboard/users/${SAM.id}`);
    expect(mine.getByText('New member')).toBeVisible();
  });

  it("a request I already offered on shows a disabled 'Offer sent' instead of Accept", async () => {
    stubApi({
      'GET /requests/browse': () => ({
        body: { items: [makeRequest({ title: 'Already mine to carry', accepted_by_me: true })], next_cursor: null },
      }),
    });
    renderWithProviders(<BrowseRequests />);
    const card = within((await screen.findByRole('heading', { name: 'Already mine to carry' })).closest('li')!);
    const sent = card.getByRole('button', { name: 'Offer sent for request Already mine to carry' });
    expect(sent).toBeDisabled();
    expect(sent).toHaveTextContent('Offer sent');
    expect(card.queryByRole('button', { name: /Accept/ })).not.toBeInTheDocument();
    expect(card.getByRole('link', { name: 'See My Bookings' })).toHaveAttribute('href', '/dashboard/bookings');
  });

  it('accepting toasts Success and sends only the request id', async () => {
    const calls = renderPage(() => ({ status: 201, body: {} }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Request accepted! Check your bookings to manage it.')).toBeVisible();
    expect(screen.getByText('Success')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ request_id: theirs.id });
  });

  it('a request no longer open toasts Unavailable and reloads the list', async () => {
    const calls = renderPage(() => ({
      status: 409,
      body: { code: 'request_unavailable', message: 'This request is no longer available.' },
    }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Unavailable')).toBeVisible();
    expect(screen.getByText('This request is no longer available.')).toBeVisible();
    await waitFor(() => expect(calls.filter((c) => c.path.startsWith('/requests/browse'))).toHaveLength(2));
  });

  it('a second accept toasts "Already accepted"', async () => {
    renderPage(() => ({ status: 409, body: { code: 'already_accepted', message: 'whatever the server says' } }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Already accepted')).toBeVisible();
    expect(screen.getByText("You've already accepted this request")).toBeVisible();
  });

  it("labels a Plus or Community requester's request 'Priority' after their name (issue 38), and no other", async () => {
    const priority = makeRequest({ title: 'Hay to the barn', requester_name: 'Pat Plus', priority: true });
    stubApi({ 'GET /requests/browse': () => ({ body: { items: [priority, theirs], next_cursor: null } }) });
    renderWithProviders(<BrowseRequests />);
    const card = within((await screen.findByRole('heading', { name: 'Hay to the barn' })).closest('li')!);
    expect(card.getByRole('img', { name: PRIORITY_BADGE_LABEL })).toHaveTextContent('Priority');
    expect(card.getByText(/^Requested by/)).toHaveTextContent('Requested by Pat Plus Priority');
    const other = within(screen.getByRole('heading', { name: 'Parcel to the post office' }).closest('li')!);
    expect(other.queryByRole('img', { name: PRIORITY_BADGE_LABEL })).not.toBeInTheDocument();
  });

  it("shows Community's 'Ambassador' badge after a Community requester's name (issue 38), and no other", async () => {
    const member = makeRequest({
      title: 'Hay to the barn',
      requester_name: 'Cam Community',
      requester_ambassador: true,
      priority: true,
    });
    stubApi({ 'GET /requests/browse': () => ({ body: { items: [member, theirs], next_cursor: null } }) });
    renderWithProviders(<BrowseRequests />);
    const card = within((await screen.findByRole('heading', { name: 'Hay to the barn' })).closest('li')!);
    expect(card.getByRole('img', { name: AMBASSADOR_BADGE_LABEL })).toHaveTextContent('Ambassador');
    expect(card.getByText(/^Requested by/)).toHaveTextContent('Requested by Cam Community Ambassador Priority');
    expect(card.getByRole('link', { name: 'Cam Community' })).toBeVisible();
    const other = within(screen.getByRole('heading', { name: 'Parcel to the post office' }).closest('li')!);
    expect(other.queryByRole('img', { name: AMBASSADOR_BADGE_LABEL })).not.toBeInTheDocument();
  });

  it('shows the spec empty text', async () => {
    stubApi({ 'GET /requests/browse': () => ({ body: emptyPage }) });
    renderWithProviders(<BrowseRequests />);
    expect(await screen.findByText('No requests available at the moment. Check back later!')).toBeVisible();
  });

  it('shows an error state with a retry when the load fails', async () => {
    stubApi({ 'GET /requests/browse': () => ({ status: 500, body: { code: 'internal_error', message: 'Down.' } }) });
    renderWithProviders(<BrowseRequests />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load delivery requests. Down.");
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_REQUESTS_MATCH } from '@shared/places';
import { makeRequest } from '@/test/factories';
import { DECATUR_IL, placesById } from '@/test/places';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BrowseRequests } from './browse-requests';

afterEach(() => vi.unstubAllGlobals());

const near = `/?near=${DECATUR_IL.id}&within=25`;

describe('Browse Delivery Requests filters', () => {
  it("with 'Near' set, each card says how far it is", async () => {
    stubApi({
      ...placesById,
      'GET /requests/browse': () => ({
        body: {
          items: [
            makeRequest({ title: 'In town', distance_miles: 0.4 }),
            makeRequest({ title: 'Out west', distance_miles: 12.3 }),
          ],
          next_cursor: null,
        },
      }),
    });
    renderWithProviders(<BrowseRequests />, { route: near });
    const card = async (title: string) => within((await screen.findByRole('heading', { name: title })).closest('li')!);
    expect((await card('In town')).getByText('Less than 1 mi away')).toBeVisible();
    expect((await card('Out west')).getByText('12 mi away')).toBeVisible();
    // The link names the place by id only: the Near field reads its label.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Near' })).toHaveValue('Decatur, IL'));
  });

  it('without a place there are no distances; filters that match nothing say so', async () => {
    stubApi({
      'GET /requests/browse': ({ path }) => ({
        body: path.includes('q=') ? emptyPage : { items: [makeRequest({ title: 'Anywhere' })], next_cursor: null },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<BrowseRequests />);
    const item = within((await screen.findByRole('heading', { name: 'Anywhere' })).closest('li')!);
    expect(item.queryByText(/mi away/)).not.toBeInTheDocument();
    const bar = within(screen.getByRole('search', { name: 'Filter requests' }));
    await user.type(bar.getByRole('searchbox', { name: 'Search' }), 'tractor{Enter}');
    expect(await screen.findByText(NO_REQUESTS_MATCH)).toBeVisible();
    expect(screen.queryByText('No requests available at the moment. Check back later!')).not.toBeInTheDocument();
  });
});

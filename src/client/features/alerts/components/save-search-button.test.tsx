import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAVED_SEARCH_LIMIT_MESSAGE, SEARCH_SAVED_TOAST } from '@shared/places';
import { PAGE_PATHS } from '@shared/routes';
import { BrowseRequests } from '@/features/requests/components/browse-requests';
import { BrowseRides } from '@/features/rides/components/browse-rides';
import { makeSavedSearch } from '@/test/alerts';
import { DECATUR_IL, placesById } from '@/test/places';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { SaveSearchButton } from './save-search-button';

afterEach(() => vi.unstubAllGlobals());

function stubBrowse(save: Parameters<typeof stubApi>[0][string] = () => ({ status: 201, body: makeSavedSearch() })) {
  return stubApi({
    'GET /requests/browse': () => ({ body: emptyPage }),
    'GET /rides/browse': () => ({ body: emptyPage }),
    'POST /saved-searches': save,
    ...placesById,
  });
}

const dialog = () => within(screen.getByRole('dialog', { name: 'Save this search' }));

describe('Save this search', () => {
  it("saves Browse Requests' filters from the URL under the suggested name, toasts and closes", async () => {
    const calls = stubBrowse();
    const user = userEvent.setup();
    renderWithProviders(<BrowseRequests />, {
      route: `${PAGE_PATHS.browseRequests}?q=feed&from=2099-05-01&to=2099-05-31&cursor=abc`,
    });
    await user.click(screen.getByRole('button', { name: 'Save this search' }));
    expect(
      dialog().getByText(
        'Requests from May 1, 2099 to May 31, 2099, with the words "feed". We\'ll tell you when something new matches.',
      ),
    ).toBeVisible();
    const name = dialog().getByLabelText('Name');
    expect(name).toHaveValue('Requests with "feed"');
    expect(name).toHaveFocus();
    await user.clear(name);
    await user.type(name, '  Feed this month {Enter}');

    expect(await screen.findByText(SEARCH_SAVED_TOAST)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save this search' })).toHaveFocus();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Feed this month',
      kind: 'requests',
      filters: { within: 25, from: '2099-05-01', to: '2099-05-31', q: 'feed' },
    });
  });

  it("names a search by its 'Near' place, read by the URL's place id", async () => {
    const calls = stubBrowse();
    const user = userEvent.setup();
    renderWithProviders(<SaveSearchButton kind="requests" />, {
      route: `${PAGE_PATHS.browseRequests}?near=${DECATUR_IL.id}&within=10`,
    });
    await user.click(screen.getByRole('button', { name: 'Save this search' }));
    expect(await dialog().findByText(/^Requests near Decatur, IL within 10 mi\./)).toBeVisible();
    expect(dialog().getByLabelText('Name')).toHaveValue('Requests near Decatur, IL');
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'Requests near Decatur, IL',
        kind: 'requests',
        filters: { near: DECATUR_IL.id, within: 10 },
      }),
    );
  });

  it('on Browse Rides, without filters, saves every new ride', async () => {
    const calls = stubBrowse();
    const user = userEvent.setup();
    renderWithProviders(<BrowseRides />, { route: PAGE_PATHS.browseRides });
    await user.click(screen.getByRole('button', { name: 'Save this search' }));
    expect(dialog().getByText(/^Every new ride\./)).toBeVisible();
    expect(dialog().getByLabelText('Name')).toHaveValue('All rides');
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SEARCH_SAVED_TOAST)).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'All rides', kind: 'rides' });
  });

  it('an empty name is refused under the field, and nothing is sent', async () => {
    const calls = stubBrowse();
    const user = userEvent.setup();
    renderWithProviders(<BrowseRequests />, { route: PAGE_PATHS.browseRequests });
    await user.click(screen.getByRole('button', { name: 'Save this search' }));
    await user.clear(dialog().getByLabelText('Name'));
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect(dialog().getByLabelText('Name')).toHaveAccessibleDescription('Name is required');
    expect(dialog().getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('past the limit, says so in the dialog and in a toast, and stays open', async () => {
    stubBrowse(() => ({ status: 400, body: { code: 'validation_error', message: SAVED_SEARCH_LIMIT_MESSAGE } }));
    const user = userEvent.setup();
    renderWithProviders(<BrowseRequests />, { route: PAGE_PATHS.browseRequests });
    await user.click(screen.getByRole('button', { name: 'Save this search' }));
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog().getByRole('alert')).toHaveTextContent(SAVED_SEARCH_LIMIT_MESSAGE));
    expect(screen.getAllByText(SAVED_SEARCH_LIMIT_MESSAGE)).toHaveLength(2);
    expect(screen.queryByText('Validation Error')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it("filters Browse refuses (a URL edited by hand) are a 'Validation Error' toast", async () => {
    const calls = stubBrowse();
    const user = userEvent.setup();
    renderWithProviders(<BrowseRequests />, { route: `${PAGE_PATHS.browseRequests}?near=5&within=1000` });
    await user.click(screen.getByRole('button', { name: 'Save this search' }));
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getByText('Within must be 5, 10, 25 or 50 miles')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

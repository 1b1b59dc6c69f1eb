import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, useNavigate } from '@/lib/router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLEAR_FILTERS_LABEL,
  DATE_ORDER_MESSAGE,
  NO_RIDES_MATCH,
  PICK_SUGGESTION_HINT,
  PLACE_NOT_FOUND,
} from '@shared/places';
import { VERIFIED_BADGE_LABEL, VERIFIED_FILTER_LABEL } from '@shared/verification';
import { makeRide } from '@/test/factories';
import { DECATUR_IL, placesById, suggestFrom } from '@/test/places';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BrowseRides } from './browse-rides';

afterEach(() => vi.unstubAllGlobals());

/** The router's location and its Back button, as a browser would have them. */
function Browser() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="Address">{location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
    </>
  );
}

const ride = makeRide({ origin: 'Springfield, IL', destination: 'Decatur, IL', is_own: false });

function setup(
  route = '/',
  browse = (_call: { path: string }) => ({ body: { items: [ride], next_cursor: null } as unknown }) as StubAnswer,
) {
  const calls = stubApi({
    'GET /places': ({ path }) => suggestFrom(path),
    ...placesById,
    'GET /rides/browse': browse,
  });
  renderWithProviders(
    <>
      <BrowseRides />
      <Browser />
    </>,
    { route },
  );
  const bar = within(screen.getByRole('search', { name: 'Filter rides' }));
  return { calls, bar, user: userEvent.setup() };
}

const address = () => new URLSearchParams(screen.getByRole('status', { name: 'Address' }).textContent!);
type StubAnswer = { status?: number; body?: unknown };
const browseCalls = (calls: { path: string }[]) =>
  calls.filter((c) => c.path.startsWith('/rides/browse')).map((c) => new URL(c.path, 'http://x').searchParams);

describe('Browse Rides filters', () => {
  it('applies Near (chosen by keyboard), Within, dates and Search into the URL, and the list asks for them', async () => {
    const { calls, bar, user } = setup('/', ({ path }) => ({
      body: { items: [path.includes('near=') ? { ...ride, distance_miles: 12.3 } : ride], next_cursor: null },
    }));
    await screen.findByRole('heading', { name: 'Springfield, IL → Decatur, IL' });
    expect(bar.getByLabelText('Within')).toBeDisabled();
    expect(bar.getByLabelText('Within')).toHaveValue('25');

    await user.type(bar.getByRole('combobox', { name: 'Near' }), 'Decat');
    await bar.findByRole('option', { name: 'Decatur, IL 62521' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(bar.getByRole('combobox', { name: 'Near' })).toHaveValue('Decatur, IL');
    expect(bar.getByLabelText('Within')).toBeEnabled();
    await user.selectOptions(bar.getByLabelText('Within'), '10 miles');
    await user.type(bar.getByLabelText('From'), '2099-05-01');
    await user.type(bar.getByLabelText('To'), '2099-05-31');
    await user.type(bar.getByRole('searchbox', { name: 'Search' }), ' Café ');
    await user.click(bar.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() => expect(address().get('near')).toBe(String(DECATUR_IL.id)));
    // The place by its id only; the field still shows its label (the chosen suggestion, no request for it).
    expect(Object.fromEntries(address())).toEqual({
      near: String(DECATUR_IL.id),
      within: '10',
      from: '2099-05-01',
      to: '2099-05-31',
      q: 'Café',
    });
    await waitFor(() => expect(browseCalls(calls)).toHaveLength(2));
    // Ordered nearest first by the server, each card says how far.
    expect(await screen.findByText('12 mi away')).toBeVisible();
    const sent = browseCalls(calls)[1]!;
    sent.delete('limit');
    expect(Object.fromEntries(sent)).toEqual({
      near: String(DECATUR_IL.id),
      within: '10',
      from: '2099-05-01',
      to: '2099-05-31',
      q: 'Café',
    });
    // The narrow screens' button counts the filters applied.
    expect(screen.getByRole('button', { name: 'Filters (4)' })).toBeInTheDocument();
    expect(bar.getByRole('combobox', { name: 'Near' })).toHaveValue('Decatur, IL');
    expect(calls.some((c) => c.path.startsWith('/places/'))).toBe(false);
  });

  it('a shared link shows its filters and results; Back returns to the previous filters; Clear filters resets', async () => {
    // As an alert's notification builds it: the place by its id, no label.
    const { calls, bar, user } = setup(`/?near=${DECATUR_IL.id}&within=50&q=eggs`, ({ path }) => ({
      body: path.includes('q=eggs') ? { items: [ride], next_cursor: null } : emptyPage,
    }));
    await waitFor(() => expect(bar.getByRole('combobox', { name: 'Near' })).toHaveValue('Decatur, IL'));
    expect(bar.getByRole('combobox', { name: 'Near' })).not.toHaveAccessibleDescription();
    expect(bar.getByLabelText('Within')).toHaveValue('50');
    expect(bar.getByRole('searchbox', { name: 'Search' })).toHaveValue('eggs');
    await screen.findByRole('heading', { name: 'Springfield, IL → Decatur, IL' });
    expect(Object.fromEntries(browseCalls(calls)[0]!)).toMatchObject({ near: String(DECATUR_IL.id), q: 'eggs' });

    await user.clear(bar.getByRole('searchbox', { name: 'Search' }));
    await user.type(bar.getByRole('searchbox', { name: 'Search' }), 'piano{Enter}');
    expect(await screen.findByText(NO_RIDES_MATCH)).toBeVisible();
    expect(address().get('q')).toBe('piano');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(address().get('q')).toBe('eggs'));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('eggs');
    // That list was cached under its filters: shown again at once.
    expect(screen.getByRole('heading', { name: 'Springfield, IL → Decatur, IL' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: CLEAR_FILTERS_LABEL }));
    await waitFor(() => expect(address().toString()).toBe(''));
    const cleared = within(screen.getByRole('search', { name: 'Filter rides' }));
    expect(cleared.getByRole('combobox', { name: 'Near' })).toHaveValue('');
    expect(cleared.getByRole('combobox', { name: 'Near' })).toHaveFocus();
    expect(cleared.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    expect(cleared.getByLabelText('Within')).toBeDisabled();
    expect(await screen.findByText('No rides available at the moment. Check back later!')).toBeVisible();
    expect(cleared.queryByRole('button', { name: CLEAR_FILTERS_LABEL })).not.toBeInTheDocument();
  });

  it('only a chosen place counts for Near: free text gets the hint and is not applied', async () => {
    const { bar, user } = setup();
    await user.type(bar.getByRole('combobox', { name: 'Near' }), 'my farm');
    expect(bar.getByRole('combobox', { name: 'Near' })).toHaveAccessibleDescription(PICK_SUGGESTION_HINT);
    expect(bar.getByLabelText('Within')).toBeDisabled();
    await user.type(bar.getByRole('searchbox', { name: 'Search' }), 'hay');
    await user.click(bar.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(address().get('q')).toBe('hay'));
    expect(address().has('near')).toBe(false);
    expect(address().has('within')).toBe(false);
  });

  it("'To' before 'From' is refused by the To field before asking the server", async () => {
    const { calls, bar, user } = setup();
    await screen.findByRole('heading', { name: 'Springfield, IL → Decatur, IL' });
    await user.type(bar.getByLabelText('From'), '2099-05-10');
    await user.type(bar.getByLabelText('To'), '2099-05-01');
    await user.click(bar.getByRole('button', { name: 'Apply filters' }));
    expect(bar.getByLabelText('To')).toHaveAccessibleDescription(DATE_ORDER_MESSAGE);
    expect(bar.getByLabelText('To')).toHaveFocus();
    expect(address().toString()).toBe('');
    expect(browseCalls(calls)).toHaveLength(1);
  });

  it("a link the server refuses shows the server's message by its field, not a failed load", async () => {
    setup('/?from=2099-05-10&to=2099-05-01', () => ({
      status: 400,
      body: { code: 'validation_error', message: DATE_ORDER_MESSAGE },
    }));
    const to = await screen.findByLabelText('To');
    await waitFor(() => expect(to).toHaveAccessibleDescription(DATE_ORDER_MESSAGE));
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/We couldn't load/)).not.toBeInTheDocument();
    expect(screen.getByText('Change the filters above to see available rides.')).toBeVisible();
  });

  it("an older link's near_label is not trusted: the field shows the id's own label", async () => {
    const { bar } = setup(`/?near=${DECATUR_IL.id}&within=25&near_label=Paris%2C+France`);
    await waitFor(() => expect(bar.getByRole('combobox', { name: 'Near' })).toHaveValue('Decatur, IL'));
  });

  it('a place that no longer exists is reported by Near', async () => {
    const { calls } = setup('/?near=999999&near_label=Atlantis', () => ({
      status: 400,
      body: { code: 'validation_error', message: PLACE_NOT_FOUND },
    }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Near' })).toHaveAccessibleDescription(PLACE_NOT_FOUND),
    );
    await waitFor(() => expect(calls.some((c) => c.path === '/places/999999')).toBe(true));
    expect(screen.getByRole('combobox', { name: 'Near' })).toHaveValue('');
  });

  it("'Load more' keeps the filters", async () => {
    const next = makeRide({ origin: 'Riverton', destination: 'Decatur, IL', is_own: false });
    const { calls, user } = setup(`/?q=eggs`, ({ path }) => ({
      body: path.includes('cursor=c1') ? { items: [next], next_cursor: null } : { items: [ride], next_cursor: 'c1' },
    }));
    await screen.findByRole('heading', { name: 'Springfield, IL → Decatur, IL' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Riverton → Decatur, IL' })).toBeVisible();
    const more = browseCalls(calls).at(-1)!;
    expect(more.get('cursor')).toBe('c1');
    expect(more.get('q')).toBe('eggs');
  });

  it("on a narrow screen the filters fold under a 'Filters' button", async () => {
    const { user } = setup();
    const toggle = screen.getByRole('button', { name: 'Filters' });
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(panel).toHaveClass('hidden', 'md:block');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(panel).not.toHaveClass('hidden');
    expect(within(panel).getByRole('search', { name: 'Filter rides' })).toBeInTheDocument();
  });
});

describe("'Verified members only' (issue 37)", () => {
  it('the checkbox writes verified=1 into the URL, the list asks for it, and verified posters show the badge', async () => {
    const verifiedRide = makeRide({
      origin: 'Hope, IL',
      destination: 'Decatur, IL',
      is_own: false,
      poster_verified: true,
    });
    const { calls, bar, user } = setup('/', ({ path }) => ({
      body: { items: path.includes('verified=1') ? [verifiedRide] : [ride, verifiedRide], next_cursor: null },
    }));
    const card = (await screen.findByRole('heading', { name: 'Hope, IL → Decatur, IL' })).parentElement!.parentElement!;
    expect(within(card).getByRole('img', { name: VERIFIED_BADGE_LABEL })).toHaveTextContent('Verified');
    const plain = screen.getByRole('heading', { name: 'Springfield, IL → Decatur, IL' }).parentElement!.parentElement!;
    expect(within(plain).queryByRole('img', { name: VERIFIED_BADGE_LABEL })).toBeNull();

    await user.click(bar.getByRole('checkbox', { name: VERIFIED_FILTER_LABEL }));
    await user.click(bar.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(address().get('verified')).toBe('1'));
    await waitFor(() => expect(browseCalls(calls).at(-1)?.get('verified')).toBe('1'));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Springfield, IL → Decatur, IL' })).toBeNull());

    // A link with the filter shows the box ticked.
    await user.click(bar.getByRole('button', { name: CLEAR_FILTERS_LABEL }));
    await waitFor(() => expect(address().get('verified')).toBeNull());
    expect(bar.getByRole('checkbox', { name: VERIFIED_FILTER_LABEL })).not.toBeChecked();
  });

  it('opens ticked from a link with verified=1', async () => {
    const { bar } = setup('/?verified=1');
    await screen.findByRole('heading', { name: 'Springfield, IL → Decatur, IL' });
    expect(bar.getByRole('checkbox', { name: VERIFIED_FILTER_LABEL })).toBeChecked();
  });
});

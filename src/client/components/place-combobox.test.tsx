import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PICK_SUGGESTION_HINT } from '@shared/places';
import { PlaceField } from '@/components/form/place-field';
import { DECATUR_IL, SPRINGFIELD_IL, suggestFrom } from '@/test/places';
import { renderWithProviders, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

/** A form with one location field, reporting what it would submit. */
function Harness({ onSubmit }: { onSubmit: (v: { text: string; placeId: number | null }) => void }) {
  const [text, setText] = useState('');
  const [placeId, setPlaceId] = useState<number | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ text, placeId });
      }}
    >
      <PlaceField
        id="origin"
        label="Origin"
        value={text}
        placeId={placeId}
        onValueChange={(t, p) => {
          setText(t);
          setPlaceId(p?.id ?? null);
        }}
      />
      <button type="submit">Save</button>
      <button type="button">Next</button>
    </form>
  );
}

function setup() {
  const calls = stubApi({ 'GET /places': ({ path }) => suggestFrom(path) });
  const submitted: { text: string; placeId: number | null }[] = [];
  renderWithProviders(<Harness onSubmit={(v) => submitted.push(v)} />);
  return { calls, submitted, user: userEvent.setup(), input: screen.getByRole('combobox', { name: 'Origin' }) };
}

const placeCalls = <C extends { path: string }>(calls: C[]) => calls.filter((c) => c.path.startsWith('/places'));

describe('PlaceCombobox', () => {
  it('is a collapsed list-autocomplete combobox until two letters bring suggestions', async () => {
    const { calls, user, input } = setup();
    expect(input).toHaveAttribute('aria-autocomplete', 'list');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    const listId = input.getAttribute('aria-controls')!;
    expect(document.getElementById(listId)).toHaveAttribute('role', 'listbox');
    expect(input).not.toHaveAttribute('aria-activedescendant');

    await user.type(input, 'S');
    await new Promise((r) => setTimeout(r, 300));
    expect(placeCalls(calls)).toHaveLength(0);
    expect(input).toHaveAttribute('aria-expanded', 'false');

    await user.type(input, 'pringf');
    const list = await screen.findByRole('listbox', { name: 'Suggested places' });
    expect(list.id).toBe(listId);
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Springfield, IL 62701',
      'Springfield, MO 65801',
      'Springfield, OH 45501',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('3 suggestions');
    // Debounced: typing 'pringf' at speed asked once, for the whole word.
    expect(placeCalls(calls).map((c) => c.path)).toEqual(['/places?q=springf']);
  });

  it('ArrowDown/ArrowUp move the active option (wrapping), Enter chooses it without submitting the form', async () => {
    const { user, input, submitted } = setup();
    await user.type(input, 'Springf');
    await screen.findByRole('listbox');

    await user.keyboard('{ArrowDown}');
    const [il, mo, oh] = screen.getAllByRole('option');
    expect(input).toHaveAttribute('aria-activedescendant', il!.id);
    expect(il).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', oh!.id);
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', il!.id);
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', oh!.id);
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', mo!.id);
    expect(il).toHaveAttribute('aria-selected', 'false');

    await user.keyboard('{ArrowUp}{Enter}');
    expect(input).toHaveValue('Springfield, IL');
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(screen.queryByText(PICK_SUGGESTION_HINT)).not.toBeInTheDocument();
    expect(submitted).toEqual([]);

    // With nothing active, Enter submits: the chosen place's id goes with the text.
    await user.keyboard('{Enter}');
    expect(submitted).toEqual([{ text: 'Springfield, IL', placeId: SPRINGFIELD_IL.id }]);
  });

  it('a tap on an option chooses it', async () => {
    const { user, input, submitted } = setup();
    await user.type(input, 'dec');
    await user.click(await screen.findByRole('option', { name: 'Decatur, IL 62521' }));
    expect(input).toHaveValue('Decatur, IL');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submitted).toEqual([{ text: 'Decatur, IL', placeId: DECATUR_IL.id }]);
  });

  it('Escape closes the list and keeps the text; Tab closes it and leaves', async () => {
    const { user, input } = setup();
    await user.type(input, 'Springf');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}{Escape}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(input).toHaveValue('Springf');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    // ArrowDown opens it again (from the cache), then Tab moves on.
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('Springf');
  });

  it('free text stays allowed, with the hint under the field; typing after choosing drops the place', async () => {
    const { user, input, submitted } = setup();
    expect(screen.queryByText(PICK_SUGGESTION_HINT)).not.toBeInTheDocument();
    await user.type(input, 'Miller farm, County Rd 9');
    expect(input).toHaveAccessibleDescription(PICK_SUGGESTION_HINT);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submitted.at(-1)).toEqual({ text: 'Miller farm, County Rd 9', placeId: null });

    await user.clear(input);
    await user.type(input, 'Decat');
    await user.click(await screen.findByRole('option', { name: 'Decatur, IL 62521' }));
    expect(input).not.toHaveAccessibleDescription();
    await user.type(input, ' north');
    expect(input).toHaveAccessibleDescription(PICK_SUGGESTION_HINT);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submitted.at(-1)).toEqual({ text: 'Decatur, IL north', placeId: null });
  });

  it('announces no suggestions, and aborts a request whose text changed before it answered', async () => {
    let answerFirst!: () => void;
    const calls = stubApi({
      'GET /places': ({ path }) =>
        path.endsWith('q=dec')
          ? new Promise((resolve) => (answerFirst = () => resolve(suggestFrom(path))))
          : suggestFrom(path),
    });
    renderWithProviders(<Harness onSubmit={() => {}} />);
    const user = userEvent.setup();
    const input = screen.getByRole('combobox', { name: 'Origin' });
    await user.type(input, 'Dec');
    await waitFor(() => expect(placeCalls(calls)).toHaveLength(1));
    await user.type(input, 'x');
    await waitFor(() => expect(placeCalls(calls)).toHaveLength(2));
    expect(placeCalls(calls)[0]!.signal?.aborted).toBe(true);
    expect(placeCalls(calls)[1]!.signal?.aborted).toBe(false);
    answerFirst();
    expect(await screen.findByRole('status')).toHaveTextContent('No suggestions');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });
});

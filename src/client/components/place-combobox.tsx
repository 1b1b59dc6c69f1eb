import { useState } from 'react';
import type * as React from 'react';
import type { Place } from '@shared/places';
import { Input } from '@/components/ui/input';
import { usePlaceSuggestions } from '@/lib/place-suggestions';
import { cn } from '@/lib/utils';

/** Names the popup list; only the open one is in the accessibility tree. */
export const SUGGESTIONS_LABEL = 'Suggested places';

/** What the live region says when suggestions arrive. */
export const suggestionCountText = (n: number) =>
  n === 0 ? 'No suggestions' : n === 1 ? '1 suggestion' : `${n} suggestions`;

export interface PlaceComboboxProps extends Omit<
  React.ComponentProps<'input'>,
  'value' | 'onChange' | 'type' | 'role' | 'id'
> {
  id: string;
  /** The field's text: typed, or the label of the chosen place. */
  value: string;
  /** Typing reports the text with no place; choosing a suggestion reports its label and the place. */
  onValueChange: (text: string, place: Place | null) => void;
}

/**
 * A location field that suggests places (WAI-ARIA combobox with a listbox popup, list autocomplete): from two
 * letters it shows up to 8 places; ArrowDown/ArrowUp move through them (focus stays in the field, the active one is
 * aria-activedescendant), Enter or a tap chooses, Escape closes and keeps the text, Tab leaves. The text stays
 * free: nothing needs choosing to submit, which also keeps the form usable on a slow line.
 */
export function PlaceCombobox({ id, value, onValueChange, onKeyDown, onBlur, ...input }: PlaceComboboxProps) {
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState<number | null>(null);
  const { places, current } = usePlaceSuggestions(value, open);
  const listId = `${id}-suggestions`;
  const optionId = (place: Place) => `${id}-option-${place.id}`;
  const expanded = places.length > 0;
  // The active option is remembered by place, so a list that changes under it never points at a different one.
  const activeIndex = places.findIndex((p) => p.id === activeId);
  const active = activeIndex >= 0 ? places[activeIndex] : undefined;

  const close = () => {
    setOpen(false);
    setActiveId(null);
  };
  const choose = (place: Place) => {
    onValueChange(place.label, place);
    close();
  };
  const move = (step: 1 | -1) => {
    if (!places.length) return;
    const from = activeIndex < 0 ? (step === 1 ? -1 : 0) : activeIndex;
    setActiveId(places[(from + step + places.length) % places.length]!.id);
  };

  const keyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(e);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter' && active) {
      // Choosing is not submitting: the form is submitted by an Enter with no option active.
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape' && expanded) {
      // Only the list closes (a dialog around the form stays open); the text is kept.
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') {
      close();
    }
  };

  return (
    <div className="relative">
      <Input
        {...input}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={active ? optionId(active) : undefined}
        value={value}
        onChange={(e) => {
          onValueChange(e.target.value, null);
          setOpen(true);
          setActiveId(null);
        }}
        onKeyDown={keyDown}
        onBlur={(e) => {
          close();
          onBlur?.(e);
        }}
      />
      <ul
        id={listId}
        role="listbox"
        // Not '<field> suggestions': the field's own name stays unique to the field (getByLabel, voice control).
        aria-label={SUGGESTIONS_LABEL}
        hidden={!expanded}
        // Keeps focus (and so the open list) in the field while a pointer picks an option or drags the scrollbar.
        onMouseDown={(e) => e.preventDefault()}
        className="absolute z-50 mt-1 max-h-80 w-full overflow-auto rounded-md border bg-background p-1 shadow-lg"
      >
        {places.map((place) => (
          <li
            key={place.id}
            id={optionId(place)}
            role="option"
            aria-selected={place.id === active?.id}
            // The active option stays in view in a list that scrolls (jsdom has no scrollIntoView).
            ref={place.id === active?.id ? (el) => el?.scrollIntoView?.({ block: 'nearest' }) : undefined}
            onClick={() => choose(place)}
            className={cn(
              'flex min-h-11 cursor-pointer items-center gap-2 rounded-sm px-3 py-2 hover:bg-accent',
              place.id === active?.id && 'bg-accent text-accent-foreground outline-2 outline-ring',
            )}
          >
            <span className="font-medium">{place.label}</span>{' '}
            <span className="text-sm text-muted-foreground">{place.zip}</span>
          </li>
        ))}
      </ul>
      <p role="status" className="sr-only">
        {open && current ? suggestionCountText(places.length) : ''}
      </p>
    </div>
  );
}

import { Star } from 'lucide-react';
import { RadioGroup } from 'radix-ui';
import { useRef, useState } from 'react';
import type * as React from 'react';
import { RATING_VALUES } from '@shared/reviews';
import { cn } from '@/lib/utils';

export const starLabel = (n: number) => `${n} ${n === 1 ? 'star' : 'stars'}`;

/**
 * A required rating of 1 to 5 as a radio group: Tab reaches it once, the arrow keys move the choice, each option is
 * read as '1 star' ... '5 stars'. It looks like five stars that fill up to the one hovered or chosen; each is a
 * 44px target with a visible focus ring. `ref` reaches the chosen star (or the first), so a form can focus it.
 */
export function StarRatingInput({
  value,
  onChange,
  onBlur,
  ref,
  name,
  disabled,
  invalid,
  'aria-labelledby': labelledBy,
  'aria-describedby': describedBy,
}: {
  value: number | undefined;
  onChange: (value: number) => void;
  onBlur?: () => void;
  ref?: React.Ref<HTMLButtonElement>;
  name?: string;
  disabled?: boolean;
  invalid?: boolean;
  'aria-labelledby': string;
  'aria-describedby'?: string;
}) {
  const [hovered, setHovered] = useState<number | null>(null);
  const shown = hovered ?? value ?? 0;
  const focusTarget = value ?? RATING_VALUES[0];
  // Radix checks a radio when an arrow key moves focus to it only while that key is still held down (it focuses on
  // a timer). A quick tap, or a tool that sends key-down and key-up at once, would move focus without choosing: so
  // an arrow key pressed in the last half second makes the star it focuses the choice, as a radio group should.
  const arrowAt = useRef(0);
  return (
    <div className="flex flex-wrap items-center gap-3">
      <RadioGroup.Root
        name={name}
        value={value === undefined ? null : String(value)}
        onValueChange={(next) => onChange(Number(next))}
        onBlur={onBlur}
        onPointerLeave={() => setHovered(null)}
        required
        disabled={disabled}
        orientation="horizontal"
        loop
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onKeyDown={(event) => {
          if (event.key.startsWith('Arrow')) arrowAt.current = performance.now();
        }}
        className="flex gap-1"
      >
        {RATING_VALUES.map((n) => (
          <RadioGroup.Item
            key={n}
            ref={n === focusTarget ? ref : undefined}
            value={String(n)}
            aria-label={starLabel(n)}
            onPointerEnter={() => setHovered(n)}
            onFocus={() => {
              if (n !== value && performance.now() - arrowAt.current < 500) onChange(n);
            }}
            className="inline-flex size-11 items-center justify-center rounded-md transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60"
          >
            <Star
              aria-hidden
              className={cn(
                'size-8 transition-colors',
                n <= shown ? 'fill-amber-500 text-amber-700' : 'text-muted-foreground',
              )}
            />
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      {/* The radios already say which is chosen; this repeats it for the eye only. */}
      <span aria-hidden className="text-sm text-muted-foreground">
        {value ? starLabel(value) : ''}
      </span>
    </div>
  );
}

import { useEffect, useRef, type RefObject } from 'react';

/**
 * Puts focus on `target` when `value` changes and focus is nowhere (on the page's body, or on an element that has
 * just been removed). After an action, the new data may remove the pressed button's whole section, dialog and all,
 * before the dialog could hand focus back; the status, which says what changed, then takes it.
 */
export function useFocusOnChange(target: RefObject<HTMLElement | null>, value: unknown): void {
  const shown = useRef(value);
  useEffect(() => {
    if (Object.is(shown.current, value)) return;
    shown.current = value;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) target.current?.focus();
  }, [target, value]);
}

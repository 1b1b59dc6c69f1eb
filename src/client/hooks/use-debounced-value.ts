import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `ms`: typing fast asks the server once, for what was typed last. */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

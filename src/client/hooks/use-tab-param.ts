import { useSearchParams } from '@/lib/router';
import { KEEP_SCROLL } from '@/app/scroll-restoration';

/**
 * A page's open tab kept in its address as `?tab=`: the first of `tabs` is the default and leaves the address bare,
 * so a link can open a tab, a reload keeps it, and switching replaces the history entry rather than adding one.
 * Other query values stay as they are. `preventScrollReset` keeps the page where it is when the tab changes.
 */
export function useTabParam<T extends string>(
  tabs: readonly [T, ...T[]],
  { preventScrollReset = false }: { preventScrollReset?: boolean } = {},
): [T, (next: T) => void] {
  const [params, setParams] = useSearchParams();
  const fromAddress = params.get('tab');
  const tab = tabs.find((t) => t === fromAddress) ?? tabs[0];
  const setTab = (next: T) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === tabs[0]) updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true, state: preventScrollReset ? KEEP_SCROLL : undefined },
    );
  return [tab, setTab];
}

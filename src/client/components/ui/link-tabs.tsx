import type * as React from 'react';
import { cn } from '@/lib/utils';

export interface LinkTab<T extends string> {
  value: T;
  label: string;
  /** The address of the page with this tab open (the prerendered page honours it). */
  href: string;
}

/**
 * Tabs whose triggers are links to the page with that tab open. Before the page's script has loaded (a prerendered
 * page on a slow phone), a tap follows the link and the server sends the page with that tab open; once it runs, a
 * tap switches the tab in place through `onSelect`, with the tabs pattern's keyboard: the arrow keys, Home and End
 * move to a tab and open it (decision 027). Ctrl/Cmd-click still opens the link in a new tab.
 */
export function LinkTabList<T extends string>({
  tabs,
  value,
  onSelect,
  idBase,
  className,
}: {
  tabs: readonly LinkTab<T>[];
  value: T;
  onSelect: (value: T) => void;
  /** Tab i is `${idBase}-tab-${value}` and controls `${idBase}-panel-${value}` (see LinkTabPanel). */
  idBase: string;
  className?: string;
}) {
  const select = (next: LinkTab<T>, list: HTMLElement) => {
    onSelect(next.value);
    list.querySelector<HTMLElement>(`#${CSS.escape(`${idBase}-tab-${next.value}`)}`)?.focus();
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.value === value);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    select(tabs[(to + tabs.length) % tabs.length]!, event.currentTarget);
  };
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      className={cn(
        'inline-flex h-11 w-full items-center justify-center rounded-md bg-muted p-1 text-muted-foreground',
        className,
      )}
    >
      {tabs.map((tab) => {
        const active = tab.value === value;
        return (
          <a
            key={tab.value}
            id={`${idBase}-tab-${tab.value}`}
            href={tab.href}
            role="tab"
            aria-selected={active}
            // Only the open tab's panel exists.
            aria-controls={active ? `${idBase}-panel-${tab.value}` : undefined}
            // One tab stop for the list, as in the tabs pattern: the arrow keys move between tabs.
            tabIndex={active ? 0 : -1}
            data-state={active ? 'active' : 'inactive'}
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              if (!active) onSelect(tab.value);
            }}
            className="inline-flex flex-1 items-center justify-center whitespace-nowrap rounded-sm px-3 py-2 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm"
          >
            {tab.label}
          </a>
        );
      })}
    </div>
  );
}

/** The panel of the open tab of a LinkTabList with the same `idBase`. */
export function LinkTabPanel({
  idBase,
  value,
  className,
  ...props
}: React.ComponentProps<'div'> & { idBase: string; value: string }) {
  return (
    <div
      role="tabpanel"
      id={`${idBase}-panel-${value}`}
      aria-labelledby={`${idBase}-tab-${value}`}
      className={cn('mt-4', className)}
      {...props}
    />
  );
}

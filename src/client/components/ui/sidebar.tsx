import { PanelLeft } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { cn } from '@/lib/utils';

const SIDEBAR_COOKIE = 'sidebar_state';
/** Spec section 9: the collapsed state is remembered for 7 days. */
const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
const SIDEBAR_SHORTCUT = 'b';

interface SidebarContextValue {
  state: 'expanded' | 'collapsed';
  open: boolean;
  setOpen: (open: boolean) => void;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  toggleSidebar: () => void;
}

/**
 * The phone's sheet is a radix Dialog (about 12 KB compressed with its helpers): loaded the first time it opens,
 * not with the dashboard's first screen. Closed, it renders nothing anyway.
 */
const SidebarSheet = React.lazy(() => import('./sidebar-sheet').then((m) => ({ default: m.SidebarSheet })));

const SidebarContext = React.createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const ctx = React.useContext(SidebarContext);
  if (!ctx) throw new Error('useSidebar must be used within a SidebarProvider.');
  return ctx;
}

export function readSidebarCookie(cookie: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE}=(true|false)`));
  return match ? match[1] === 'true' : true;
}

export function SidebarProvider({ children, className, style, ...props }: React.ComponentProps<'div'>) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = React.useState(() => readSidebarCookie());
  const [openMobile, setOpenMobile] = React.useState(false);

  const setOpen = React.useCallback((value: boolean) => {
    setOpenState(value);
    document.cookie = `${SIDEBAR_COOKIE}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
  }, []);

  const toggleSidebar = React.useCallback(() => {
    if (isMobile) setOpenMobile((o) => !o);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === SIDEBAR_SHORTCUT && (event.metaKey || event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        toggleSidebar();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggleSidebar]);

  const value = React.useMemo<SidebarContextValue>(
    () => ({
      state: open ? 'expanded' : 'collapsed',
      open,
      setOpen,
      openMobile,
      setOpenMobile,
      isMobile,
      toggleSidebar,
    }),
    [open, setOpen, openMobile, isMobile, toggleSidebar],
  );

  return (
    <SidebarContext.Provider value={value}>
      <div
        style={
          {
            '--sidebar-width': '16rem',
            '--sidebar-width-icon': '3rem',
            ...style,
          } as React.CSSProperties
        }
        className={cn('flex min-h-svh w-full', className)}
        {...props}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  );
}

export function Sidebar({
  children,
  className,
  label,
}: {
  children: React.ReactNode;
  className?: string;
  label: string;
}) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();
  const [sheetUsed, setSheetUsed] = React.useState(false);
  if (isMobile && openMobile && !sheetUsed) setSheetUsed(true);
  if (isMobile) {
    if (!sheetUsed) return null;
    return (
      <React.Suspense fallback={null}>
        <SidebarSheet open={openMobile} onOpenChange={setOpenMobile} label={label}>
          {children}
        </SidebarSheet>
      </React.Suspense>
    );
  }
  return (
    <aside
      aria-label={label}
      data-state={state}
      data-testid="sidebar"
      className={cn(
        'group/sidebar sticky top-0 flex h-svh shrink-0 flex-col overflow-hidden border-r bg-sidebar text-sidebar-foreground transition-[width] duration-200',
        state === 'expanded' ? 'w-(--sidebar-width)' : 'w-(--sidebar-width-icon)',
        className,
      )}
    >
      {children}
    </aside>
  );
}

export function SidebarTrigger({ className, ...props }: React.ComponentProps<typeof Button>) {
  const { toggleSidebar, state, isMobile, openMobile } = useSidebar();
  const expanded = isMobile ? openMobile : state === 'expanded';
  return (
    <Button
      variant="ghost"
      size="icon"
      className={className}
      onClick={toggleSidebar}
      aria-expanded={expanded}
      aria-keyshortcuts="Control+B Meta+B"
      {...props}
    >
      <PanelLeft aria-hidden />
      <span className="sr-only">Toggle Sidebar</span>
    </Button>
  );
}

export function SidebarHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex items-center gap-2 p-3', className)} {...props} />;
}

export function SidebarContent({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto overflow-x-hidden', className)} {...props} />
  );
}

export function SidebarFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 p-2', className)} {...props} />;
}

export function SidebarGroup({ label, children }: { label: string; children: React.ReactNode }) {
  const id = React.useId();
  return (
    <section className="flex flex-col p-2" aria-labelledby={id}>
      <h2
        id={id}
        className="flex h-8 items-center px-2 text-xs font-semibold uppercase tracking-wide text-sidebar-foreground/80 group-data-[state=collapsed]/sidebar:sr-only"
      >
        {label}
      </h2>
      {children}
    </section>
  );
}

export function SidebarMenu({ className, ...props }: React.ComponentProps<'ul'>) {
  return <ul className={cn('flex flex-col gap-1', className)} {...props} />;
}

/** Styles for a menu entry; the label collapses to screen-reader text when the sidebar shows icons only. */
export const sidebarItemClass =
  'flex h-11 w-full items-center gap-3 overflow-hidden rounded-md px-3 text-left text-sm outline-none hover:bg-sidebar-accent focus-visible:ring-2 focus-visible:ring-ring aria-[current=page]:bg-sidebar-accent aria-[current=page]:font-semibold group-data-[state=collapsed]/sidebar:justify-center group-data-[state=collapsed]/sidebar:px-0 [&_svg]:size-5 [&_svg]:shrink-0';

export function SidebarItemLabel({ children }: { children: React.ReactNode }) {
  return <span className="truncate group-data-[state=collapsed]/sidebar:sr-only">{children}</span>;
}

export function SidebarInset({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex min-w-0 flex-1 flex-col bg-background', className)} {...props} />;
}

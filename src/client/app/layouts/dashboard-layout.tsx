import { PageMeta } from '@/components/page-meta';
import { Car, ClipboardList, LayoutDashboard, LogOut, Package, Search, Settings, Truck, Wallet } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from '@/lib/router';
import { OfflineBanner } from '@/offline/offline-banner';
import { Button } from '@/components/ui/button';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarHeader,
  SidebarInset,
  SidebarItemLabel,
  SidebarMenu,
  SidebarProvider,
  SidebarTrigger,
  sidebarItemClass,
  useSidebar,
} from '@/components/ui/sidebar';
import { useSession } from '@/features/auth/api/session';
import { useSignOut } from '@/features/auth/api/sign-out';
import { MessagesNavLink } from '@/features/messages/components/messages-nav-link';
import { NotificationsBell } from '@/features/notifications/components/notifications-bell';
import { PAGE_PATHS } from '@shared/routes';
import { loadClassMerger } from '../lazy-page';
import { SidebarNavItem } from './sidebar-nav-item';

/** The live stream checks each event against its contract (zod): loaded after the first screen, not with it. */
const LiveEvents = lazy(() => import('@/lib/live-events').then((m) => ({ default: m.LiveEvents })));
/**
 * The changes kept with no signal: none on a first visit, so the send queue (offline/send-queue.ts) comes after the
 * first screen too; on a return the service worker has it at once.
 */
const WaitingToSend = lazy(() =>
  Promise.all([import('@/offline/waiting-to-send'), loadClassMerger()]).then(([m]) => ({ default: m.WaitingToSend })),
);

const DASHBOARD_LINKS = [
  { to: PAGE_PATHS.dashboard, label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: PAGE_PATHS.myRides, label: 'My Rides', icon: Car, end: false },
  { to: PAGE_PATHS.myRequests, label: 'My Requests', icon: Package, end: false },
  { to: PAGE_PATHS.browseRides, label: 'Browse Rides', icon: Search, end: false },
  { to: PAGE_PATHS.browseRequests, label: 'Browse Requests', icon: ClipboardList, end: false },
  { to: PAGE_PATHS.myBookings, label: 'My Bookings', icon: Truck, end: false },
  { to: PAGE_PATHS.payments, label: 'Payments', icon: Wallet, end: false },
] as const;

/** Moderators' links: their code comes only for a moderator (admin-nav-links.tsx). */
const AdminNavLinks = lazy(() => import('./admin-nav-links').then((m) => ({ default: m.AdminNavLinks })));
/** At the bottom, above 'Sign Out'. */
const SETTINGS_LINK = { to: PAGE_PATHS.settings, label: 'Settings', icon: Settings, end: false } as const;

function DashboardSidebar({ isAdmin }: { isAdmin: boolean }) {
  const signOut = useSignOut();
  const { isMobile, setOpenMobile } = useSidebar();
  const closeOnMobile = () => isMobile && setOpenMobile(false);
  return (
    <Sidebar label="Dashboard navigation">
      <SidebarHeader>
        <span className="truncate px-1 text-lg font-bold text-primary group-data-[state=collapsed]/sidebar:sr-only">
          RuralRoute
        </span>
      </SidebarHeader>
      <SidebarContent>
        <SidebarGroup label="Menu">
          <SidebarMenu>
            {DASHBOARD_LINKS.map((link) => (
              <SidebarNavItem key={link.to} link={link} onNavigate={closeOnMobile} />
            ))}
            <li>
              <MessagesNavLink onClick={closeOnMobile} />
            </li>
            {isAdmin ? (
              <Suspense fallback={null}>
                <AdminNavLinks onNavigate={closeOnMobile} />
              </Suspense>
            ) : null}
          </SidebarMenu>
        </SidebarGroup>
      </SidebarContent>
      <SidebarFooter>
        <NavLink to={SETTINGS_LINK.to} className={sidebarItemClass} title={SETTINGS_LINK.label} onClick={closeOnMobile}>
          <SETTINGS_LINK.icon aria-hidden />
          <SidebarItemLabel>{SETTINGS_LINK.label}</SidebarItemLabel>
        </NavLink>
        <button
          type="button"
          className={sidebarItemClass}
          title="Sign Out"
          disabled={signOut.isPending}
          onClick={() => signOut.mutate()}
        >
          <LogOut aria-hidden />
          <SidebarItemLabel>Sign Out</SidebarItemLabel>
        </button>
      </SidebarFooter>
    </Sidebar>
  );
}

/**
 * While the session is looked up (spec: 'Loading...'): the dashboard's frame, with nothing of anyone in it. The
 * build prerenders this as /dashboard's HTML (scripts/prerender.tsx), so a slow line shows it at once instead of a
 * blank page; the app then renders over it. The sidebar here is the desktop one only (a phone's opens from the menu).
 */
/** /auth for a signed-out visitor, with the page they asked for to come back to (the dashboard itself needs none). */
const signInFirst = (wanted: string) =>
  wanted === PAGE_PATHS.dashboard ? PAGE_PATHS.auth : `${PAGE_PATHS.auth}?next=${encodeURIComponent(wanted)}`;

function DashboardPending() {
  return (
    <div className="flex min-h-svh w-full">
      <PageMeta title="Dashboard — RuralRoute" description="Your rides, requests and bookings on RuralRoute." />
      <nav
        aria-label="Dashboard navigation"
        className="sticky top-0 hidden h-svh w-64 shrink-0 flex-col border-r bg-sidebar text-sidebar-foreground md:flex"
      >
        <span className="flex h-14 items-center px-3 text-lg font-bold text-primary">RuralRoute</span>
        <ul className="flex flex-col gap-1 p-2">
          {DASHBOARD_LINKS.map(({ to, label, icon: Icon, end }) => (
            <li key={to}>
              <NavLink to={to} end={end} className={sidebarItemClass}>
                <Icon aria-hidden />
                <span className="truncate">{label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-4">
          <p className="text-lg font-semibold">RuralRoute Dashboard</p>
        </header>
        <main className="flex-1 p-4 md:p-6">
          <OfflineBanner />
          <p role="status" className="text-center text-lg">
            Loading...
          </p>
        </main>
      </div>
    </div>
  );
}

/** Spec "Dashboard layout": 'Loading...' while the session is looked up, /auth when signed out, else the shell. */
export function Component() {
  const session = useSession();
  const location = useLocation();
  // This screen renders without tailwind-merge (its classes need none); what opens from it next may need it.
  useEffect(() => void loadClassMerger(), []);

  if (session.isPending) return <DashboardPending />;
  // With a session already known (loaded before, or kept on the device), a failed check keeps the dashboard: its
  // lists show what was last loaded. A 401 is not a failure here: it records the signed-out state.
  if (session.data === undefined) {
    return (
      <div role="alert" className="mx-auto max-w-md space-y-4 p-8 text-center">
        <p className="text-lg">We could not check whether you are signed in. Check your connection and try again.</p>
        <Button onClick={() => session.refetch()}>Try again</Button>
      </div>
    );
  }
  if (!session.data.user) return <Navigate to={signInFirst(location.pathname + location.search)} replace />;

  return (
    <SidebarProvider>
      <Suspense fallback={null}>
        <LiveEvents userId={session.data.user.id} />
      </Suspense>
      <DashboardSidebar isAdmin={session.data.user.is_admin} />
      <SidebarInset>
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-2">
          <SidebarTrigger />
          <p className="text-lg font-semibold">RuralRoute Dashboard</p>
          <NotificationsBell className="ml-auto" />
        </header>
        <main className="flex-1 p-4 md:p-6">
          <OfflineBanner />
          <Suspense fallback={null}>
            <WaitingToSend userId={session.data.user.id} />
          </Suspense>
          <Outlet />
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}

import { Menu, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from '@/lib/router';
import { clsx } from 'clsx';
import { PAGE_PATHS } from '@shared/routes';

const NAV_LINKS = [
  { to: PAGE_PATHS.home, label: 'Home' },
  { to: PAGE_PATHS.howItWorks, label: 'How It Works' },
  { to: PAGE_PATHS.pricing, label: 'Pricing' },
  { to: PAGE_PATHS.about, label: 'About' },
  { to: PAGE_PATHS.faq, label: 'FAQ' },
  { to: PAGE_PATHS.contact, label: 'Contact' },
] as const;

const FOOTER_GROUPS = [
  {
    title: 'Product',
    links: [
      { to: PAGE_PATHS.howItWorks, label: 'How It Works' },
      { to: PAGE_PATHS.pricing, label: 'Pricing' },
      { to: PAGE_PATHS.faq, label: 'FAQ' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: PAGE_PATHS.about, label: 'About' },
      { to: PAGE_PATHS.contact, label: 'Contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: PAGE_PATHS.privacy, label: 'Privacy Policy' },
      { to: PAGE_PATHS.terms, label: 'Terms of Service' },
    ],
  },
] as const;

// Class lists are joined with clsx, not tailwind-merge (kept out of the entry), so none may set the same property
// twice: each variant below spells out its own size.
const focusRing = 'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';
const navLinkClass =
  (size: 'bar' | 'menu') =>
  ({ isActive }: { isActive: boolean }) =>
    clsx(
      'rounded-md px-3 font-medium hover:bg-accent',
      size === 'bar' ? 'py-2 text-sm' : 'block py-3 text-base',
      focusRing,
      isActive ? 'text-primary underline underline-offset-8' : 'text-foreground',
    );
// A link styled as the primary button; kept here rather than <Button asChild> so the public entry stays small.
const getStartedClass = (size: 'bar' | 'menu') =>
  clsx(
    'inline-flex h-11 items-center justify-center rounded-md bg-primary px-4 font-medium text-primary-foreground hover:bg-primary/90 focus-visible:ring-offset-2',
    size === 'bar' ? 'ml-2 text-sm' : 'mt-2 w-full text-base',
    focusRing,
  );

/** Layout of every public page: top navigation (a toggled menu below 768px), the page, and the footer. */
export function PublicLayout() {
  const { pathname } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  // Going to another page closes the menu; a menu opened before the script ran stays open when the page hydrates.
  const shownOn = useRef(pathname);
  useEffect(() => {
    if (shownOn.current === pathname) return;
    shownOn.current = pathname;
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  return (
    <div className="flex min-h-svh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b bg-background">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
          <Link to={PAGE_PATHS.home} className={clsx('rounded-md text-xl font-bold text-primary', focusRing)}>
            RuralRoute
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {NAV_LINKS.map((l) => (
              <NavLink key={l.to} to={l.to} end className={navLinkClass('bar')}>
                {l.label}
              </NavLink>
            ))}
            <Link to={PAGE_PATHS.auth} className={getStartedClass('bar')}>
              Get Started
            </Link>
          </nav>
          {/*
            The phone's menu is a <details>: it opens from the first tap, before the page's script has loaded (a
            prerendered page, decision 027), and its icon and label follow its state by CSS alone.
          */}
          <details ref={menu} className="group md:hidden">
            <summary
              className={clsx(
                'inline-flex size-11 cursor-pointer list-none items-center justify-center rounded-md hover:bg-accent [&::-webkit-details-marker]:hidden',
                focusRing,
              )}
            >
              <Menu aria-hidden className="size-6 group-open:hidden" />
              <X aria-hidden className="hidden size-6 group-open:block" />
              <span className="sr-only group-open:hidden">Open menu</span>
              <span className="sr-only hidden group-open:inline">Close menu</span>
            </summary>
            <nav
              id="mobile-menu"
              aria-label="Mobile"
              className="absolute inset-x-0 top-16 border-y bg-background px-4 pb-4"
              // A link to the page already shown does not change the address: close the menu on any link.
              onClick={(e) => {
                if (menu.current && (e.target as Element).closest('a')) menu.current.open = false;
              }}
              onKeyDown={(e) => {
                if (e.key !== 'Escape' || !menu.current) return;
                menu.current.open = false;
                menu.current.querySelector('summary')?.focus();
              }}
            >
              <ul className="flex flex-col gap-1 pt-2">
                {NAV_LINKS.map((l) => (
                  <li key={l.to}>
                    <NavLink to={l.to} end className={navLinkClass('menu')}>
                      {l.label}
                    </NavLink>
                  </li>
                ))}
                <li>
                  <Link to={PAGE_PATHS.auth} className={getStartedClass('menu')}>
                    Get Started
                  </Link>
                </li>
              </ul>
            </nav>
          </details>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <footer className="border-t bg-muted">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 md:grid-cols-4">
          <div>
            <p className="text-lg font-bold text-primary">RuralRoute</p>
            <p className="mt-2 text-sm text-muted-foreground">Neighbours sharing the road and the load.</p>
          </div>
          {FOOTER_GROUPS.map((group) => (
            <nav key={group.title} aria-labelledby={`footer-${group.title.toLowerCase()}`}>
              <h2 id={`footer-${group.title.toLowerCase()}`} className="text-sm font-semibold">
                {group.title}
              </h2>
              <ul className="mt-3 space-y-2 text-sm">
                {group.links.map((l) => (
                  <li key={l.to}>
                    <Link
                      to={l.to}
                      className={clsx('rounded text-muted-foreground hover:text-foreground hover:underline', focusRing)}
                    >
                      {l.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="border-t">
          <p className="mx-auto max-w-6xl px-4 py-4 text-sm text-muted-foreground">
            © RuralRoute. Made for rural communities.
          </p>
        </div>
      </footer>
    </div>
  );
}

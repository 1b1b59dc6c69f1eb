import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact' },
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
    isActive ? 'text-primary' : 'text-foreground',
  );

export function PublicLayout() {
  const { pathname } = useLocation();
  // The menu is open for the page it was opened on; navigating closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;

  return (
    <div className="flex min-h-svh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b bg-background/95">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
          <Link to="/" className="text-xl font-bold text-primary">
            RuralRoute
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {NAV_LINKS.map((l) => (
              <NavLink key={l.to} to={l.to} end className={navLinkClass}>
                {l.label}
              </NavLink>
            ))}
            <Button asChild className="ml-2">
              <Link to="/auth">Get Started</Link>
            </Button>
          </nav>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setOpenOn(menuOpen ? null : pathname)}
          >
            {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          </Button>
        </div>
        {menuOpen ? (
          <nav id="mobile-menu" aria-label="Mobile" className="border-t px-4 pb-4 md:hidden">
            <ul className="flex flex-col gap-1 pt-2">
              {NAV_LINKS.map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to} end className={({ isActive }) => cn(navLinkClass({ isActive }), 'block py-3')}>
                    {l.label}
                  </NavLink>
                </li>
              ))}
              <li>
                <Button asChild className="mt-2 w-full">
                  <Link to="/auth">Get Started</Link>
                </Button>
              </li>
            </ul>
          </nav>
        ) : null}
      </header>
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <footer className="border-t bg-muted">
        <div className="mx-auto max-w-6xl px-4 py-8 text-sm text-muted-foreground">
          <p>© {new Date().getFullYear()} RuralRoute. Neighbours sharing the road.</p>
        </div>
      </footer>
    </div>
  );
}

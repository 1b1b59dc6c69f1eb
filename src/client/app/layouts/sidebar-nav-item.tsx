import type { LucideIcon } from 'lucide-react';
import { NavLink } from '@/lib/router';
import { SidebarItemLabel, sidebarItemClass } from '@/components/ui/sidebar';

export interface SidebarLink {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Current only at exactly this address (the dashboard's own page), not below it. */
  end: boolean;
}

/** One link of the dashboard's sidebar: its icon, and its label (a tooltip when the sidebar is narrowed to icons). */
export function SidebarNavItem({ link, onNavigate }: { link: SidebarLink; onNavigate: () => void }) {
  const { to, label, icon: Icon, end } = link;
  return (
    <li>
      <NavLink to={to} end={end} className={sidebarItemClass} title={label} onClick={onNavigate}>
        <Icon aria-hidden />
        <SidebarItemLabel>{label}</SidebarItemLabel>
      </NavLink>
    </li>
  );
}

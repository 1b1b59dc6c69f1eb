import { Flag, IdCard, Landmark, LifeBuoy, Scale } from 'lucide-react';
import { PAGE_PATHS } from '@shared/routes';
import { SidebarNavItem, type SidebarLink } from './sidebar-nav-item';

/** Moderators only (the pages and their API answer 404 to anyone else). */
const ADMIN_LINKS: SidebarLink[] = [
  { to: PAGE_PATHS.adminReports, label: 'Reports', icon: Flag, end: false },
  { to: PAGE_PATHS.adminPayments, label: 'All payments', icon: Landmark, end: false },
  { to: PAGE_PATHS.adminDisputes, label: 'Disputes', icon: Scale, end: false },
  { to: PAGE_PATHS.adminVerifications, label: 'ID checks', icon: IdCard, end: false },
  { to: PAGE_PATHS.adminSupport, label: 'Support', icon: LifeBuoy, end: false },
];

/**
 * The moderators' links in the dashboard's sidebar. Loaded only for a moderator, just after the first screen: the
 * few people who see them are not worth their icons on everyone's first visit (issue 34).
 */
export function AdminNavLinks({ onNavigate }: { onNavigate: () => void }) {
  return ADMIN_LINKS.map((link) => <SidebarNavItem key={link.to} link={link} onNavigate={onNavigate} />);
}

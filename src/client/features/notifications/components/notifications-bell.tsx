import { Bell } from 'lucide-react';
import { NavLink } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useUnreadNotifications } from '../api/unread';

/** The badge's text: large counts are capped so the badge stays small ('99+'). */
export function unreadBadgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The dashboard header's bell: a link to the notifications page with the number of unread notifications. Its name
 * is 'Notifications', or 'Notifications, 3 unread' (read out in full; the badge is for the eye only).
 */
export function NotificationsBell({ className }: { className?: string }) {
  const unread = useUnreadNotifications().data?.count ?? 0;
  return (
    <NavLink
      to={PAGE_PATHS.notifications}
      title="Notifications"
      className={cn(buttonVariants({ variant: 'ghost', size: 'iconLarge' }), 'relative', className)}
    >
      <Bell aria-hidden />
      <span className="sr-only">{unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}</span>
      {unread > 0 ? (
        <span
          aria-hidden
          className="absolute right-0 top-0 min-w-5 rounded-full bg-primary px-1 text-center text-xs font-semibold leading-5 text-primary-foreground"
        >
          {unreadBadgeText(unread)}
        </span>
      ) : null}
    </NavLink>
  );
}

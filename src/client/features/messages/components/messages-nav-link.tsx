import { MessageSquare } from 'lucide-react';
import { NavLink } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { SidebarItemLabel, sidebarItemClass } from '@/components/ui/sidebar';
import { cn } from '@/lib/utils';
import { useUnreadConversations } from '../api/unread';

/** The sidebar's 'Messages' entry with the number of conversations that have unread messages (none at 0). */
export function MessagesNavLink({ onClick }: { onClick?: () => void }) {
  const unread = useUnreadConversations().data?.conversations ?? 0;
  return (
    <NavLink
      to={PAGE_PATHS.messages}
      className={cn(sidebarItemClass, 'relative')}
      title="Messages"
      aria-label={unread > 0 ? `Messages, ${unread} unread` : 'Messages'}
      onClick={onClick}
    >
      <MessageSquare aria-hidden />
      <SidebarItemLabel>Messages</SidebarItemLabel>
      {unread > 0 ? (
        <span
          aria-hidden
          className="ml-auto min-w-6 rounded-full bg-primary px-1.5 text-center text-xs font-semibold leading-6 text-primary-foreground group-data-[state=collapsed]/sidebar:absolute group-data-[state=collapsed]/sidebar:right-0 group-data-[state=collapsed]/sidebar:top-0 group-data-[state=collapsed]/sidebar:min-w-5 group-data-[state=collapsed]/sidebar:leading-5"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </NavLink>
  );
}

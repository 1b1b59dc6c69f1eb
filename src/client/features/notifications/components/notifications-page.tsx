import { Link } from '@/lib/router';
import { MARK_ALL_READ_LABEL, NOTIFICATIONS_EMPTY_TEXT, type Notification } from '@shared/notifications';
import { PAGE_PATHS } from '@shared/routes';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Button } from '@/components/ui/button';
import { formatInstant } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
  useUnreadNotifications,
} from '../api/notifications';

/**
 * One notification: its sentence is the link to what it is about, stretched over the whole card so the card is one
 * large target; its time below. An unread one is bold with a dot, and says 'Unread' to screen readers. Opening it
 * (click, or Enter on the link) marks it read without holding up the navigation.
 */
function NotificationRow({ notification: n, onOpen }: { notification: Notification; onOpen: (id: string) => void }) {
  const unread = n.read_at === null;
  return (
    <div
      className={cn(
        'relative flex items-start gap-3 rounded-lg border bg-card p-4 shadow-sm hover:bg-accent has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-ring',
        unread && 'border-primary/40',
      )}
    >
      <span
        aria-hidden
        className={cn('mt-2 size-2.5 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')}
      />
      <div className="min-w-0 flex-1">
        <Link
          to={n.link}
          onClick={unread ? () => onOpen(n.id) : undefined}
          className={cn(
            'break-words outline-none after:absolute after:inset-0 after:rounded-lg',
            unread ? 'font-semibold' : 'font-normal',
          )}
        >
          {unread ? (
            <>
              {/* The space outside the hidden word, so every browser hears 'Unread: Dan ...', not 'Unread:Dan'. */}
              <span className="sr-only">Unread:</span>{' '}
            </>
          ) : null}
          {n.text}
        </Link>
        <time dateTime={n.created_at} className="mt-1 block text-sm text-muted-foreground">
          {formatInstant(n.created_at)}
        </time>
      </div>
    </div>
  );
}

/** '/dashboard/notifications': mine, newest first, with 'Mark all as read' and the way to the e-mail settings. */
export function NotificationsPage() {
  const unread = useUnreadNotifications().data?.count ?? 0;
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  return (
    <div>
      <PageHeader
        title="Notifications"
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <Link to={PAGE_PATHS.notificationSettings}>Notification settings</Link>
            </Button>
            <Button disabled={unread === 0 || markAll.isPending} onClick={() => markAll.mutate()}>
              {MARK_ALL_READ_LABEL}
            </Button>
          </div>
        }
      />
      <PaginatedList
        query={useNotifications()}
        what="your notifications"
        empty={NOTIFICATIONS_EMPTY_TEXT}
        renderItem={(n) => <NotificationRow notification={n} onOpen={(id) => markRead.mutate(id)} />}
      />
    </div>
  );
}

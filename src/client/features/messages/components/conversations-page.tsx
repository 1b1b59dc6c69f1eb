import { Link } from '@/lib/router';
import { MESSAGES_EMPTY_TEXT, type ConversationSummary } from '@shared/messages';
import { bookingDetailPath } from '@shared/routes';
import { ListPage } from '@/components/list-page';
import { Badge } from '@/components/ui/badge';
import { PersonMenu } from '@/features/moderation';
import { formatInstant } from '@/lib/format';
import { useConversations } from '../api/conversations';

/**
 * One conversation: the other person's name links to their profile, with their menu (Report, Block) beside it, like
 * everywhere a name is shown; the rest of the card is the link that opens the conversation (a link or a menu button
 * cannot sit inside a link).
 */
function ConversationRow({ conversation: c }: { conversation: ConversationSummary }) {
  const last = c.last_message;
  return (
    <div className="rounded-lg border bg-card shadow-sm">
      <div className="flex items-start justify-between gap-3 px-4 pt-4">
        <PersonMenu person={c.other} bookingId={c.booking_id} className="break-words text-lg font-semibold" />
        {c.unread_count > 0 ? (
          <Badge tone="blue">
            {c.unread_count}
            <span className="sr-only"> unread</span>
          </Badge>
        ) : null}
      </div>
      <Link
        to={`${bookingDetailPath(c.booking_id)}#messages`}
        className="block rounded-b-lg px-4 pb-4 pt-1 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
      >
        <p className="break-words text-sm text-muted-foreground">{c.request_title}</p>
        <div className="mt-2 flex flex-wrap items-baseline justify-between gap-x-3">
          {last ? (
            <p className="min-w-0 truncate">
              {last.from_me ? 'You: ' : ''}
              {last.preview}
            </p>
          ) : (
            <p className="text-muted-foreground">No messages yet</p>
          )}
          <time dateTime={last?.created_at ?? c.activity_at} className="text-sm text-muted-foreground">
            {formatInstant(last?.created_at ?? c.activity_at)}
          </time>
        </div>
      </Link>
    </div>
  );
}

/** '/dashboard/messages': my conversations, most recent first; each opens its booking page at 'Messages'. */
export function ConversationsPage() {
  return (
    <ListPage
      title="Messages"
      query={useConversations()}
      what="your conversations"
      empty={MESSAGES_EMPTY_TEXT}
      renderItem={(c) => <ConversationRow conversation={c} />}
    />
  );
}

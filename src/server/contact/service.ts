import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ContactMessage, ContactReceipt } from '../../shared/contact';
import type { Page } from '../../shared/marketplace';
import type { PaidPlan } from '../../shared/plans';
import {
  SUPPORT_ALREADY_ANSWERED,
  SUPPORT_MESSAGE_NOT_FOUND,
  type SupportMessage,
  type SupportReply,
  type SupportStatus,
} from '../../shared/support';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorMicros, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { contactMessages, profiles } from '../db/schema';
import { enqueueMail } from '../mail';
import { isPaid, planOf } from '../plans';
import { composeSupportReplyMail } from './reply-mail';

interface StoredContactMessage extends ContactMessage {
  id: string;
  createdAt: Date;
}

export interface ContactServiceOptions {
  /** The app's clock: when a message was answered. */
  clock: () => Date;
  /** The app's public address (APP_URL), for the reply mail's link. */
  appUrl: string;
  /** The support address (SUPPORT_EMAIL): a reply mail's Reply-To. */
  supportEmail: string;
}

const iso = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** created_at keeps microseconds (PostgreSQL's default precision): the cursor carries them all. */
const micros = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Contact messages: stored as sent (already trimmed and checked by the shared schema), with the signed-in sender and
 * their paid plan; the support inbox for admins (issue 38): the list, and 'Reply', which mails the answer once.
 */
export function createContactService(db: Db, opts: ContactServiceOptions) {
  const { clock, appUrl, supportEmail } = opts;

  /**
   * One message. A signed-in member's carries their account and their paid plan at this moment (null for Free, as
   * for a visitor), in the same insert: a Plus or Community member's message comes first in the inbox.
   */
  async function store(input: ContactMessage, senderId: string | null = null): Promise<ContactReceipt> {
    const plan = senderId ? await planOf(db, senderId) : null;
    const [row] = await db
      .insert(contactMessages)
      .values({
        name: input.name,
        email: input.email,
        subject: input.subject,
        message: input.message,
        userId: senderId,
        plan: isPaid(plan) ? plan : null,
      })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    if (!row) throw new Error('insert returned no row');
    return { id: row.id, created_at: row.createdAt.toISOString() };
  }

  /** Newest first; for tests. */
  async function latest(limit = 50): Promise<StoredContactMessage[]> {
    return db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit);
  }

  // ─── The support inbox (admins) ────────────────────────────────────────────────────────────────────────────────

  const m = contactMessages;
  const inboxColumns = {
    id: m.id,
    name: m.name,
    email: m.email,
    subject: m.subject,
    message: m.message,
    createdAt: iso(m.createdAt),
    at: micros(m.createdAt),
    noPlan: sql<boolean>`(${m.plan} is null)`,
    userId: m.userId,
    plan: m.plan,
    reply: m.reply,
    repliedAt: iso(m.repliedAt),
    repliedById: m.repliedBy,
    repliedByName: profiles.fullName,
  };
  type InboxRow = {
    id: string;
    name: string;
    email: string;
    subject: string;
    message: string;
    createdAt: string;
    at: string;
    noPlan: boolean;
    userId: string | null;
    plan: string | null;
    reply: string | null;
    repliedAt: string | null;
    repliedById: string | null;
    repliedByName: string | null;
  };
  const selectInbox = (exec: Db) =>
    exec.select(inboxColumns).from(m).leftJoin(profiles, eq(profiles.userId, m.repliedBy)).$dynamic();

  // Over contact_messages_inbox_idx ((replied_at is not null), (plan is null), created_at, id): the open ones,
  // members with a plan first, then oldest first. The ORDER BY and the row comparison name all four of the index's
  // keys (the first one constant here), so PostgreSQL walks the index from the cursor on and stops at the page's end.
  const openList = keysetList({
    name: 'admin_support_open',
    from: () => selectInbox(db),
    filter: sql`${m.repliedAt} is null`,
    after: sql`((${m.repliedAt} is not null), (${m.plan} is null), ${m.createdAt}, ${m.id}) > (false, ${sql.placeholder('noPlan')}::boolean, ${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [sql`(${m.repliedAt} is not null)`, sql`(${m.plan} is null)`, asc(m.createdAt), asc(m.id)],
    cursor: z.tuple([z.enum(['0', '1']), cursorMicros, cursorUuid]),
    bind: ([noPlan, at, id]: ['0' | '1', string, string]) => ({ noPlan, at, id }),
    sortKey: (r: InboxRow) => [r.noPlan ? '1' : '0', r.at, r.id] as const,
  });
  // Answered ones, newest message first (backwards over contact_messages_created_at_idx): the archive.
  const answeredList = keysetList({
    name: 'admin_support_answered',
    from: () => selectInbox(db),
    filter: sql`${m.repliedAt} is not null`,
    after: sql`(${m.createdAt}, ${m.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(m.createdAt), desc(m.id)],
    cursor: z.tuple([cursorMicros, cursorUuid]),
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey: (r: InboxRow) => [r.at, r.id] as const,
  });

  const toItem = (r: InboxRow): SupportMessage => ({
    id: r.id,
    name: r.name,
    email: r.email,
    subject: r.subject,
    message: r.message,
    created_at: r.createdAt,
    user_id: r.userId,
    plan: r.plan as PaidPlan | null,
    reply: r.reply,
    replied_by: r.repliedById ? { id: r.repliedById, full_name: r.repliedByName ?? '' } : null,
    replied_at: r.repliedAt,
  });

  /** 'Open': members with a plan first, then oldest first; 'Answered': newest first. */
  function list(status: SupportStatus, page: PageRequest): Promise<Page<SupportMessage>> {
    return (status === 'open' ? openList : answeredList)({}, page, toItem);
  }

  /**
   * 'Reply', once, in ONE transaction: the conditional UPDATE (`... WHERE replied_at IS NULL`) decides which of two
   * admins answers (the other gets 409 already_replied, and nothing is mailed twice); the mail to the sender (the
   * answer, their message quoted) is queued with it, so it is sent exactly when the answer is stored.
   */
  async function reply(adminId: string, messageId: string, input: SupportReply): Promise<SupportMessage> {
    return db.transaction(async (tx) => {
      const [answered] = await tx
        .update(m)
        .set({ reply: input.reply, repliedBy: adminId, repliedAt: clock() })
        .where(and(eq(m.id, messageId), sql`${m.repliedAt} is null`))
        .returning({
          name: m.name,
          email: m.email,
          subject: m.subject,
          message: m.message,
          createdAt: m.createdAt,
        });
      if (!answered) {
        const [exists] = await tx.select({ id: m.id }).from(m).where(eq(m.id, messageId));
        throw exists
          ? new DomainError('already_replied', SUPPORT_ALREADY_ANSWERED)
          : notFound(SUPPORT_MESSAGE_NOT_FOUND);
      }
      await enqueueMail(
        tx,
        {
          ...composeSupportReplyMail({
            name: answered.name,
            email: answered.email,
            subject: answered.subject,
            message: answered.message,
            sentAt: answered.createdAt,
            reply: input.reply,
            appUrl,
            supportEmail,
          }),
          messageId: `rr-support-reply-${messageId}`,
        },
        { dedupeKey: `support-reply:${messageId}` },
      );
      const [row] = await selectInbox(tx).where(eq(m.id, messageId));
      return toItem(row!);
    });
  }

  return { store, latest, list, reply };
}

export type ContactService = ReturnType<typeof createContactService>;

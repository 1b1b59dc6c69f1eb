import { desc } from 'drizzle-orm';
import type { ContactMessage, ContactReceipt } from '../../shared/contact';
import type { Db } from '../db/client';
import { contactMessages } from '../db/schema';

interface StoredContactMessage extends ContactMessage {
  id: string;
  createdAt: Date;
}

/** Contact messages: stored as sent (already trimmed and checked by the shared schema). */
export function createContactService(db: Db) {
  return {
    async store(input: ContactMessage): Promise<ContactReceipt> {
      const [row] = await db
        .insert(contactMessages)
        .values({ name: input.name, email: input.email, subject: input.subject, message: input.message })
        .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
      if (!row) throw new Error('insert returned no row');
      return { id: row.id, created_at: row.createdAt.toISOString() };
    },

    /** Newest first; for the people who answer them (and for tests). */
    async latest(limit = 50): Promise<StoredContactMessage[]> {
      return db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit);
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;

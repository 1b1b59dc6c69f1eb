import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Server-wide secrets made on first use and shared by every instance (the unsubscribe links' signing key). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Every table, one file per feature under db/schema/ (a new feature adds its file and one line here). Drizzle
 * (drizzle.config.ts) and every query import this module.
 */
export * from './schema/accounts';
export * from './schema/two-factor';
export * from './schema/idempotency';
export * from './schema/places';
export * from './schema/marketplace';
export * from './schema/messages';
export * from './schema/events';
export * from './schema/moderation';
export * from './schema/reviews';
export * from './schema/notifications';
export * from './schema/contact';
export * from './schema/attempts';
export * from './schema/jobs';
export * from './schema/secrets';
export * from './schema/along-route';
export * from './schema/list-versions';
export * from './schema/payments';
export * from './schema/disputes';
export * from './schema/verification';
export * from './schema/plans';

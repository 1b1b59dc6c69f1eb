// The live events feature's public module (docs/decisions/015): features add events to an Outbox inside their
// transaction and flush it last. The stream route is wired by app.ts.
export { EVENTS_CHANNEL, Outbox } from './outbox';

// The live events feature's public module (docs/decisions/015): features add events to an Outbox inside their
// transaction and flush it last. The hub and the stream route are wired by app.ts.
export { EVENTS_CHANNEL, Outbox } from './outbox';
export { createEventHub, type EventHub, type SessionWatch } from './hub';
export { createHintSender, type HintSender } from './hints';
export { sweepEvents } from './sweep';

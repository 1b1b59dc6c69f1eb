// Blocks between two people (docs/decisions/015): a relation every feature that brings two people together checks
// (messages, offers, asks, Browse, alerts). Blocking and unblocking themselves are moderation's actions; this folder
// only answers whether a block stands, so moderation depends on bookings and never the other way round.
export { blockedWith, isBlockedBetween } from './blocks';

/**
 * The BroadcastChannel on which each tab says whom it has signed in (a user id, or null) whenever that changes
 * (lib/session-switch.ts). /auth listens too, without the query cache: a sign-in in another tab takes it on to the
 * dashboard.
 */
export const SESSION_CHANNEL = 'ruralroute-session';

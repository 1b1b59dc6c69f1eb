// The messages feature's public module (docs/decisions/015): conversations between a booking's two people.
// Routes are HTTP-facing and wired by app.ts alone.
export { createMessageService, previewOf, type MessageService } from './service';

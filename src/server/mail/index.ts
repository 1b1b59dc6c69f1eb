// The e-mail feature's public module (docs/decisions/020-jobs-and-mail.md): features queue mails with enqueueMail
// inside their transaction; app.ts creates the mailer and registers the 'email' job handler.
export { createMailer, messageIdOf, type Mail, type Mailer, type MailerOptions } from './mailer';
export { EMAIL_JOB, emailJobHandler, enqueueMail } from './jobs';
export { composeAccountMail, escapeHtml, type MailParagraph } from './compose';

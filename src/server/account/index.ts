// The account feature's public module (Settings 'Profile', 'Email', 'Password', 'Sessions', and the re-check of sensitive actions). app.ts wires the
// routes with the auth service as AccountAuth.
export { createAccountService, SESSION_NOT_FOUND, type AccountAuth, type AccountService } from './service';
export { accountRoutes, callerOf } from './routes';
export { createIdentityChecks, type Caller, type IdentityChecks } from './identity';
export { createEmailChangeService, EMAIL_CHANGE_JOB, type EmailChangeService } from './email-service';
export { confirmEmailRoutes, emailChangeRoutes } from './email-routes';
export { emailChangeMailHandler } from './email-mail';
export { createDataExport, type DataExport } from './export';
export { createAccountDeletion, type AccountDeletion } from './deletion';
export { ACCOUNT_DELETED_JOB, accountDeletedMailHandler } from './deletion-mail';
export { dataRoutes } from './data-routes';

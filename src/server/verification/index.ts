// The verification feature's public module (issue 37, docs/verification.md): phone verification by SMS. app-routes.ts
// mounts the routes under /account; app-background.ts registers the job that texts the code.
export { createPhoneVerificationService, PHONE_CODE_JOB, type PhoneVerificationService } from './phone-service';
export { phoneVerificationRoutes } from './phone-routes';
export { phoneCodeSmsHandler } from './phone-sms';
export { formatUsPhone, parseUsPhone } from './phone-number';

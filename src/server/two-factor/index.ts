// Two-factor sign-in in one place: the codes (TOTP and recovery codes, second-factor.ts), the stored settings
// (settings.ts), Settings 'Two-factor authentication' (service.ts, routes.ts). The sign-in's code step is the auth
// feature's (auth/routes.ts), with the codes from here.
export { createSecondFactor, type SecondFactor } from './second-factor';
export { createTwoFactorSettings, type SessionChanges } from './settings';
export { createTwoFactorService, type TwoFactorSettingsPort } from './service';
export { twoFactorRoutes } from './routes';

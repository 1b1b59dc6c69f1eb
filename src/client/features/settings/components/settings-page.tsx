import { PageHeader } from '@/components/page-header';
import {
  ConfirmIdentityProvider,
  DeleteAccountSection,
  EmailSection,
  PasswordSection,
  ProfileSection,
  SessionsSection,
  TwoFactorSection,
  YourDataSection,
} from '@/features/account';
import { EarlyAccessSection } from '@/features/early-access';
import { BlockedPeopleSection } from '@/features/moderation';
import { PayoutsSection } from '@/features/payments';
import { PlanSection } from '@/features/plans';
import { VerificationSection } from '@/features/verification';
import { AlertsSection } from './alerts-section';
import { NotificationsSection } from './notifications-section';

/** '/dashboard/settings': one card per section, in this order ('Delete account', the danger zone, last). */
const SECTIONS = [
  { id: 'profile', Section: ProfileSection },
  { id: 'email', Section: EmailSection },
  { id: 'verification', Section: VerificationSection },
  { id: 'password', Section: PasswordSection },
  { id: 'sessions', Section: SessionsSection },
  { id: 'two-factor', Section: TwoFactorSection },
  { id: 'plan', Section: PlanSection },
  { id: 'early-access', Section: EarlyAccessSection },
  { id: 'payouts', Section: PayoutsSection },
  { id: 'notifications', Section: NotificationsSection },
  { id: 'alerts', Section: AlertsSection },
  { id: 'blocked-people', Section: BlockedPeopleSection },
  { id: 'your-data', Section: YourDataSection },
  { id: 'delete-account', Section: DeleteAccountSection },
];

export function SettingsPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Settings" />
      {/* Every card's sensitive action may need 'Confirm it's you' first. */}
      <ConfirmIdentityProvider>
        <div className="space-y-6">
          {SECTIONS.map(({ id, Section }) => (
            <Section key={id} />
          ))}
        </div>
      </ConfirmIdentityProvider>
    </div>
  );
}

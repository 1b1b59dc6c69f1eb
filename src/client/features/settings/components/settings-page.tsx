import { PageHeader } from '@/components/page-header';
import { EmailSection, PasswordSection, ProfileSection, SessionsSection } from '@/features/account';
import { BlockedPeopleSection } from '@/features/moderation';
import { AlertsSection } from './alerts-section';
import { NotificationsSection } from './notifications-section';

/**
 * '/dashboard/settings': one card per section, in this order. Later sections (email after profile; two-step
 * sign-in, my data, delete account) are added to this list.
 */
const SECTIONS = [
  { id: 'profile', Section: ProfileSection },
  { id: 'email', Section: EmailSection },
  { id: 'password', Section: PasswordSection },
  { id: 'sessions', Section: SessionsSection },
  { id: 'notifications', Section: NotificationsSection },
  { id: 'alerts', Section: AlertsSection },
  { id: 'blocked-people', Section: BlockedPeopleSection },
];

export function SettingsPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Settings" />
      <div className="space-y-6">
        {SECTIONS.map(({ id, Section }) => (
          <Section key={id} />
        ))}
      </div>
    </div>
  );
}

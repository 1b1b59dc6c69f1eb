import { SettingsSection } from '@/components/settings-section';
import { EmailVerificationRow } from './email-verification-row';
import { PhoneVerificationRow } from './phone-verification-row';
import { IdVerificationRow } from './id-verification-row';

/**
 * Settings, 'Verification' (issue 37): the three checks others see on my profile, each with its state and what to
 * do next. All three give the 'Verified' badge.
 */
export function VerificationSection() {
  return (
    <SettingsSection
      title="Verification"
      description="People see these checks on your profile. With all three, your name shows the ‘Verified’ badge."
    >
      <ul id="verification" className="divide-y">
        <EmailVerificationRow />
        <PhoneVerificationRow />
        <IdVerificationRow />
      </ul>
    </SettingsSection>
  );
}

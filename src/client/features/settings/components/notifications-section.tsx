import { Link } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';

/** Settings, 'Notifications': the way to the e-mail switches, which have a page of their own. */
export function NotificationsSection() {
  return (
    <SettingsSection title="Notifications" description="Choose which notifications are also sent to you by e-mail.">
      <Button asChild variant="outline">
        <Link to={PAGE_PATHS.notificationSettings}>Notification settings</Link>
      </Button>
    </SettingsSection>
  );
}

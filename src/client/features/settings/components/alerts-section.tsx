import { Link } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';

/** Settings, 'Alerts': the way to my saved searches and route alerts, which have a page of their own. */
export function AlertsSection() {
  return (
    <SettingsSection title="Alerts" description="See and change your saved searches and route alerts.">
      <Button asChild variant="outline">
        <Link to={PAGE_PATHS.alerts}>Alerts</Link>
      </Button>
    </SettingsSection>
  );
}

import { useId } from 'react';
import {
  NOTIFICATION_TYPE_LABELS,
  OPTIONAL_NOTIFICATION_TYPES,
  SECURITY_NOTIFICATION_TYPES,
  type NotificationSettings,
} from '@shared/notifications';
import { PAGE_PATHS } from '@shared/routes';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { QueryLoadError } from '@/components/query-load-error';
import { SettingsSection } from '@/components/settings-section';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useNotificationSettings, useSetEmailNotification, type OptionalNotificationType } from '../api/settings';

/**
 * One type's e-mail switch. Its visible label is 'Email'; its name also says the type ('New messages Email'), so
 * a screen reader moving from switch to switch hears which one it is on.
 */
function EmailSwitchRow({
  type,
  on,
  onChange,
}: {
  type: OptionalNotificationType;
  on: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
      <span id={`${id}-type`} className="font-medium">
        {NOTIFICATION_TYPE_LABELS[type]}
      </span>
      <span className="flex items-center gap-3">
        <Label htmlFor={`${id}-switch`} id={`${id}-email`} className="cursor-pointer">
          Email
        </Label>
        <Switch
          id={`${id}-switch`}
          aria-labelledby={`${id}-type ${id}-email`}
          checked={on}
          onCheckedChange={onChange}
        />
      </span>
    </li>
  );
}

function EmailSwitches({ settings }: { settings: NotificationSettings }) {
  const setEmail = useSetEmailNotification();
  return (
    <>
      <p>
        E-mails go to <span className="break-all font-medium">{settings.address}</span>.
      </p>
      <ul aria-label="E-mails by type" className="mt-2 divide-y">
        {OPTIONAL_NOTIFICATION_TYPES.map((type) => (
          <EmailSwitchRow
            key={type}
            type={type}
            on={settings.email[type]}
            onChange={(on) => setEmail.mutate({ type, on })}
          />
        ))}
      </ul>
    </>
  );
}

function EmailSettings() {
  const query = useNotificationSettings();
  if (query.data) return <EmailSwitches settings={query.data} />;
  if (query.isError) {
    return (
      <QueryLoadError
        what="your notification settings"
        error={query.error}
        onRetry={() => void query.refetch()}
        className="rounded-lg border border-destructive/40 p-4"
      />
    );
  }
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">Loading your notification settings...</span>
      <Skeleton className="h-5 w-2/3" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}

/** '/dashboard/settings/notifications': an e-mail switch for each type; security notices are always e-mailed. */
export function NotificationSettingsPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={PAGE_PATHS.settings}>Settings</BackLink>
      <PageHeader title="Notification settings" />
      <div className="space-y-6">
        <SettingsSection
          title="E-mails"
          description="Notifications in the app are always on. Choose which ones are also sent to you by e-mail."
        >
          <EmailSettings />
        </SettingsSection>
        <SettingsSection
          title="Security notices"
          description="To keep your account safe, these are always sent by e-mail."
        >
          <ul aria-label="Security notices" className="divide-y">
            {SECURITY_NOTIFICATION_TYPES.map((type) => (
              <li key={type} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
                <span className="font-medium">{NOTIFICATION_TYPE_LABELS[type]}</span>
                <span className="text-sm text-muted-foreground">Always e-mailed</span>
              </li>
            ))}
          </ul>
        </SettingsSection>
      </div>
    </div>
  );
}

import { DOWNLOAD_DATA_LABEL } from '@shared/account';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { toastApiError } from '@/lib/toast';
import { RecheckCancelled } from '../api/security';
import { useDownloadMyData } from '../api/data';

/**
 * Settings, 'Your data': 'Download my data' saves one JSON file with everything stored about me (behind the
 * re-check). The file's name says where to find it once saved.
 */
export function YourDataSection() {
  const download = useDownloadMyData();
  return (
    <SettingsSection title="Your data" description="Get a copy of everything RuralRoute stores about you.">
      <div className="space-y-4">
        <p>
          The file holds your account details, your rides and requests, your bookings as a driver and as a requester,
          the messages you sent and received, reviews by you and about you, your notifications and their settings, the
          browsers you are signed in on, the reports you made and the people you blocked. Other people appear only by
          their name.
        </p>
        <p className="text-sm text-muted-foreground">
          It is a JSON file: a plain text format that other apps and services can read.
        </p>
        <Button
          disabled={download.isPending}
          onClick={() =>
            download.mutate(undefined, {
              onError: (err) => {
                if (!(err instanceof RecheckCancelled)) toastApiError(err);
              },
            })
          }
        >
          {download.isPending ? 'Preparing your data...' : DOWNLOAD_DATA_LABEL}
        </Button>
        <p role="status" className="text-sm">
          {download.isSuccess ? `Saved ${download.data} to your downloads.` : ''}
        </p>
      </div>
    </SettingsSection>
  );
}

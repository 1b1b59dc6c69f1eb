import { useId } from 'react';
import { Link } from '@/lib/router';
import {
  ALERT_EMAIL_INTERVAL_MINUTES,
  browsePath,
  CORRIDOR_DEFAULT_MILES,
  ROUTE_ALERT_LABEL,
  SAVE_SEARCH_LABEL,
  type BrowseFilters,
  type SavedSearch,
} from '@shared/places';
import { alongRoutePath, PAGE_PATHS } from '@shared/routes';
import { BackLink } from '@/components/back-link';
import { ConfirmDeleteButton } from '@/components/confirm-delete-button';
import { PageHeader } from '@/components/page-header';
import { QueryLoadError } from '@/components/query-load-error';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useDeleteSavedSearch, useSavedSearches, useSetSearchEmail } from '../api/saved-searches';
import { describeFilters } from '../lib/describe';

/** Where 'Open' leads: Browse with the search's filters, or the ride's 'Requests along this route'. */
function openPath(search: SavedSearch): string {
  if (search.ride_id) return alongRoutePath(search.ride_id);
  // The filters are the server's reading of browseFiltersSchema: browsePath only writes them into the query.
  return browsePath(search.kind, search.filters as Partial<BrowseFilters>);
}

function matchText(search: SavedSearch): string {
  if (search.ride_id) return `New requests along this ride's route (within ${CORRIDOR_DEFAULT_MILES} mi)`;
  return describeFilters(search.kind, search.filters, search.near_label);
}

/** One alert: its name and what it matches, 'Open', the 'Email' switch (saved at once) and 'Delete' (confirmed). */
function AlertRow({ search }: { search: SavedSearch }) {
  const id = useId();
  const setEmail = useSetSearchEmail();
  const remove = useDeleteSavedSearch();
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3 py-4">
      <div className="min-w-0 space-y-1">
        <p id={`${id}-name`} className="break-words font-medium">
          {search.name}
        </p>
        <p className="break-words text-sm text-muted-foreground">{matchText(search)}</p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button asChild variant="outline" size="sm">
          <Link to={openPath(search)} aria-label={`Open ${search.name}`}>
            Open
          </Link>
        </Button>
        <span className="flex items-center gap-3">
          <Label htmlFor={`${id}-switch`} id={`${id}-email`} className="cursor-pointer">
            Email
          </Label>
          <Switch
            id={`${id}-switch`}
            // 'Requests near Decatur, IL Email': a screen reader hears which alert's switch it is on.
            aria-labelledby={`${id}-name ${id}-email`}
            checked={search.email}
            onCheckedChange={(email) => setEmail.mutate({ id: search.id, email })}
          />
        </span>
        <ConfirmDeleteButton
          label={`Delete ${search.name}`}
          title="Delete this alert?"
          description={`"${search.name}" will be deleted. You will no longer be told about new matches.`}
          onConfirm={() => remove.mutateAsync(search.id)}
        />
      </div>
    </li>
  );
}

function AlertList({ items, label, empty }: { items: SavedSearch[]; label: string; empty: string }) {
  if (items.length === 0) return <p className="text-muted-foreground">{empty}</p>;
  return (
    <ul aria-label={label} className="divide-y">
      {items.map((search) => (
        <AlertRow key={search.id} search={search} />
      ))}
    </ul>
  );
}

function Alerts() {
  const query = useSavedSearches();
  if (query.isError && !query.data) {
    return (
      <QueryLoadError
        what="your alerts"
        error={query.error}
        onRetry={() => void query.refetch()}
        className="rounded-lg border border-destructive/40 p-4"
      />
    );
  }
  if (!query.data) {
    return (
      <div role="status" className="space-y-3">
        <span className="sr-only">Loading your alerts...</span>
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  const items = query.data.items;
  return (
    <div className="space-y-6">
      <SettingsSection
        title="Saved searches"
        description="You are told when a new request or ride matches one of these searches."
      >
        <AlertList
          items={items.filter((s) => !s.ride_id)}
          label="Saved searches"
          empty={`No saved searches yet. Use "${SAVE_SEARCH_LABEL}" on Browse Requests or Browse Rides.`}
        />
      </SettingsSection>
      <SettingsSection
        title="Route alerts"
        description="You are told when someone posts a request along the route of one of your rides."
      >
        <AlertList
          items={items.filter((s) => s.ride_id)}
          label="Route alerts"
          empty={`No route alerts yet. Use "${ROUTE_ALERT_LABEL}" on a ride in My Rides.`}
        />
      </SettingsSection>
    </div>
  );
}

/** '/dashboard/settings/alerts': my saved searches and route alerts, each with 'Open', 'Email' and 'Delete'. */
export function AlertsPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={PAGE_PATHS.settings}>Settings</BackLink>
      <PageHeader
        title="Alerts"
        description={`New matches always show in your notifications. With 'Email' on, you also get at most one e-mail every ${ALERT_EMAIL_INTERVAL_MINUTES} minutes for each alert, with everything new since the last one.`}
      />
      <Alerts />
    </div>
  );
}

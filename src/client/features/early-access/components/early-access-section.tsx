import { useId } from 'react';
import { Link } from '@/lib/router';
import { EARLY_ACCESS_TEXT, earlyAccessFeatureList } from '@shared/early-access';
import type { EarlyAccessView } from '@shared/early-access-api';
import { PAGE_PATHS } from '@shared/routes';
import { QueryLoadError } from '@/components/query-load-error';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useEarlyAccess } from '@/hooks/use-early-access';
import { useSetEarlyAccess } from '../api/early-access';

/** What the switch turns on today: each early-access feature's name and what it does. */
function FeatureList({ id }: { id: string }) {
  return (
    <div className="mt-4">
      <h3 id={`${id}-features`} className="text-sm font-semibold">
        {EARLY_ACCESS_TEXT.featuresHeading}
      </h3>
      <ul aria-labelledby={`${id}-features`} className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {earlyAccessFeatureList().map((feature) => (
          <li key={feature.id}>
            <span className="font-medium">{feature.name}</span>: {feature.description}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The switch: usable on Community only. On another plan it is off and disabled, with the way to Community (and, when
 * it was left on, a word that the choice is kept).
 */
function EarlyAccessSwitch({ view, id }: { view: EarlyAccessView; id: string }) {
  const set = useSetEarlyAccess();
  return (
    <>
      <div className="flex items-center justify-between gap-4">
        <Label htmlFor={`${id}-switch`} className={view.available ? 'cursor-pointer' : undefined}>
          {EARLY_ACCESS_TEXT.switchLabel}
        </Label>
        <Switch
          id={`${id}-switch`}
          checked={view.on}
          disabled={!view.available}
          aria-describedby={view.available ? `${id}-features` : `${id}-plan`}
          onCheckedChange={(on) => set.mutate(on)}
        />
      </div>
      {view.available ? null : (
        <div id={`${id}-plan`} className="mt-3 space-y-3 rounded-md bg-muted p-3 text-sm">
          <p>{EARLY_ACCESS_TEXT.needsPlan}</p>
          {view.saved ? <p>{EARLY_ACCESS_TEXT.keptSwitch}</p> : null}
          <Button asChild variant="outline">
            <Link to={PAGE_PATHS.planSettings}>{EARLY_ACCESS_TEXT.getPlan}</Link>
          </Button>
        </div>
      )}
    </>
  );
}

/** Settings' 'Try new features first' (Community's early access, decision 035): shown to everyone. */
export function EarlyAccessSection() {
  const id = useId();
  const query = useEarlyAccess();
  return (
    <SettingsSection title={EARLY_ACCESS_TEXT.title} description={EARLY_ACCESS_TEXT.description}>
      {query.data ? (
        <EarlyAccessSwitch view={query.data} id={id} />
      ) : query.isError ? (
        <QueryLoadError what="early access" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading early access...</span>
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      )}
      <FeatureList id={id} />
    </SettingsSection>
  );
}

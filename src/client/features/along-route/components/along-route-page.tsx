import { lazy, Suspense, useId } from 'react';
import { Link, useParams, useSearchParams } from '@/lib/router';
import type { AlongRouteRequest } from '@shared/along-route';
import { ASKED_YOU_LABEL, alongRouteQuerySchema, CORRIDOR_DEFAULT_MILES, ROUTE_NEEDS_PLACES } from '@shared/places';
import { PAGE_PATHS } from '@shared/routes';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { QueryLoadError } from '@/components/query-load-error';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/select';
import { BrowseRequestCard } from '@/features/requests';
import { useEarlyFeature } from '@/hooks/use-early-access';
import { ApiError } from '@/lib/api-client';
import { formatDateWithTime } from '@/lib/format';
import { useAlongRoute, useRide } from '../api/along-route';

const TITLE = 'Requests along this route';

/** The route map (early access, decision 035): its own chunk, fetched only when it is on and the ride has places. */
const RouteMap = lazy(() => import('./route-map').then((m) => ({ default: m.RouteMap })));
/** The choices of 'Corridor' (the API takes any width from 1 to 25 miles; a URL's other width is added). */
const CORRIDORS = [1, 2, 5, 10, 15, 25];
const EMPTY = 'No requests along this route yet. Try a wider corridor, or check back later.';

/** The corridor of the URL (?corridor=), or the default when it is missing or out of range. */
function corridorOf(query: URLSearchParams): number {
  const parsed = alongRouteQuerySchema.safeParse({ corridor: query.get('corridor') ?? undefined });
  return parsed.success ? parsed.data.corridor : CORRIDOR_DEFAULT_MILES;
}

function detourText(miles: number): string {
  return miles < 1 ? 'Less than 1 mi detour' : `+${Math.round(miles)} mi detour`;
}

/** What the along-route list adds to a Browse card: 'Asked you' and the detour. */
function Notes({ request }: { request: AlongRouteRequest }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      {request.asked ? <Badge tone="blue">{ASKED_YOU_LABEL}</Badge> : null}
      {request.detour_miles === null ? null : <span className="font-medium">{detourText(request.detour_miles)}</span>}
    </p>
  );
}

function CorridorControl({ corridor, onChange }: { corridor: number; onChange: (miles: number) => void }) {
  const id = useId();
  const choices = CORRIDORS.includes(corridor) ? CORRIDORS : [...CORRIDORS, corridor].sort((a, b) => a - b);
  return (
    <div className="mb-6 max-w-xs space-y-2">
      <Label htmlFor={id}>Corridor</Label>
      <NativeSelect
        id={id}
        aria-describedby={`${id}-hint`}
        value={String(corridor)}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {choices.map((miles) => (
          <option key={miles} value={miles}>
            {miles === 1 ? '1 mile' : `${miles} miles`}
          </option>
        ))}
      </NativeSelect>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        How far pickup and delivery may be from the straight line between your origin and destination (through each of
        your stops, when the ride has any).
      </p>
    </div>
  );
}

/** The plain-words page for a ride that is not mine (404) or has no places (409). */
function Refusal({ text }: { text: string }) {
  return (
    <Card className="space-y-3 p-6">
      <p>{text}</p>
      <Link to={PAGE_PATHS.myRides} className="font-medium text-primary underline underline-offset-4">
        Back to My Rides
      </Link>
    </Card>
  );
}

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * '/dashboard/rides/:id/along-route': the open requests along my ride, asked first then by the detour, each with
 * Browse's card and Accept; 'Corridor' (in the URL) widens or narrows the search. The ride (GET /rides/:id) gives the
 * summary under the title; the list loads beside it.
 */
export function AlongRoutePage() {
  const { id = '' } = useParams();
  const [query, setQuery] = useSearchParams();
  const corridor = corridorOf(query);
  const ride = useRide(id);
  const list = useAlongRoute(id, corridor);
  const refusal = list.error instanceof ApiError && !list.data ? list.error : null;
  // Someone else's ride is readable (as Browse shows it), but only its driver has this list.
  const notMine = isNotFound(ride.error) || refusal?.status === 404 || ride.data?.is_own === false;
  const routeMap = useEarlyFeature('route-map');
  const mapped = routeMap && ride.data?.origin_point && ride.data.destination_point ? ride.data : null;

  // The route in order, its stops included (issue 38): 'Origin → Stop 1 → Stop 2 → Destination, date'.
  const summary = ride.data
    ? `${[ride.data.origin, ...ride.data.stops.map((s) => s.label), ride.data.destination].join(' → ')}, ${formatDateWithTime(ride.data.departure_date, ride.data.departure_time)}`
    : undefined;
  return (
    <div>
      <BackLink to={PAGE_PATHS.myRides}>My Rides</BackLink>
      <PageHeader title={TITLE} description={summary} />
      {notMine ? (
        <Refusal text="We couldn't find this ride. It may have been deleted." />
      ) : refusal?.code === 'route_needs_places' ? (
        <Refusal text={ROUTE_NEEDS_PLACES} />
      ) : (
        <>
          {ride.isError ? (
            <QueryLoadError
              what="this ride"
              error={ride.error}
              onRetry={() => void ride.refetch()}
              className="mb-6 rounded-lg border border-destructive/40 p-4"
            />
          ) : null}
          {mapped ? (
            <Suspense fallback={null}>
              <RouteMap ride={mapped} requests={list.data?.pages.flatMap((page) => page.items)} />
            </Suspense>
          ) : null}
          <CorridorControl
            corridor={corridor}
            onChange={(miles) =>
              setQuery(
                (old) => {
                  const next = new URLSearchParams(old);
                  next.set('corridor', String(miles));
                  return next;
                },
                { replace: true },
              )
            }
          />
          <PaginatedList
            query={list}
            what="requests along this route"
            empty={EMPTY}
            renderItem={(request) => <BrowseRequestCard request={request} notes={<Notes request={request} />} />}
          />
        </>
      )}
    </div>
  );
}

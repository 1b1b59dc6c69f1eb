import { Handshake, MapPin, Package, Star, type LucideIcon } from 'lucide-react';

interface Step {
  title: string;
  text: string;
  detail: string;
  icon: LucideIcon;
}

/** Spec section 2: the four steps, in order. */
const STEPS: readonly Step[] = [
  {
    title: 'Post Your Route',
    text: 'Drivers share trips they already make. Need something carried? Post a delivery request.',
    detail:
      'Heading into town on Thursday? Add your origin, destination and date, and how much space you have. Need a parcel, groceries or a pharmacy pickup brought out to you? Post a request saying what, from where and to where.',
    icon: MapPin,
  },
  {
    title: 'Connect & Coordinate',
    text: 'Drivers accept the requests that fit their route, then you agree on timing and a meet-up point.',
    detail:
      'Drivers browse open requests and accept the ones on their way. Each accepted request becomes a booking, so both of you know who is carrying what, and you settle the timing and a meet-up point together.',
    icon: Handshake,
  },
  {
    title: 'Exchange & Deliver',
    text: 'Hand the item over and it rides along on a trip that was happening anyway.',
    detail:
      'Meet at the agreed place, hand the item over, and the driver brings it along. No special trips, no extra miles: just neighbours helping neighbours on roads they already drive.',
    icon: Package,
  },
  {
    title: 'Review & Build Trust',
    text: 'Rate each other afterwards. Good reviews build reputations the whole community can rely on.',
    detail:
      'After the hand-over, rate each other. Over time reviews show who is reliable, so the next neighbour knows who they are dealing with.',
    icon: Star,
  },
];

export function StepList({ detailed = false }: { detailed?: boolean }) {
  return (
    <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
      {STEPS.map(({ title, text, detail, icon: Icon }, i) => (
        <li key={title} className="rounded-lg border bg-card p-6 shadow-sm">
          <div className="flex items-center gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground">
              <Icon aria-hidden className="size-5" />
            </span>
            <span className="text-sm font-semibold text-muted-foreground">Step {i + 1}</span>
          </div>
          <h3 className="mt-4 text-lg font-semibold">{title}</h3>
          <p className="mt-2 text-muted-foreground">{detailed ? detail : text}</p>
        </li>
      ))}
    </ol>
  );
}

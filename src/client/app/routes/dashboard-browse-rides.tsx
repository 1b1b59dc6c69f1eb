import { BrowseRides } from '@/features/rides/components/browse-rides';

export function Component() {
  return <BrowseRides />;
}

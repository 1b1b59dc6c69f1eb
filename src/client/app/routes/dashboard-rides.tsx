import { MyRides } from '@/features/rides/components/my-rides';

export function Component() {
  return <MyRides />;
}

import { AlongRoutePage } from '@/features/along-route';

export function Component() {
  return <AlongRoutePage />;
}

import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';
import { createRoutes, renderMatches, useLocation, type RouteNode } from '@/lib/router';

interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** One route of a test's `<Routes>`: its `element` at `path` (whole paths, as the app's table), routes nested in it. */
export function Route(_props: RouteProps): null {
  return null;
}

function tableOf(children: ReactNode): RouteNode[] {
  return Children.toArray(children)
    .filter((child): child is ReactElement<RouteProps> => isValidElement(child))
    .map(({ props: { path, index, element, children: nested } }) => ({
      path,
      index,
      element,
      children: nested === undefined ? undefined : tableOf(nested),
    }));
}

/** A test's few pages, written as JSX, rendered at the router's location by the app's own matcher. */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return renderMatches(createRoutes(tableOf(children)).matchesAt(pathname));
}

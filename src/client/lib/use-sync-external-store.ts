/** React 19's own, for libraries that import the React 17 shim (vite.config.ts's alias). */
export { useSyncExternalStore } from 'react';

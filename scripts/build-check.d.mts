export interface BuildTarget {
  name: string;
  output: string;
  sources: string[];
}
export const CLIENT: BuildTarget;
export const SERVER: BuildTarget;
export function buildState(root: string, target: BuildTarget): 'missing' | 'stale' | 'fresh';

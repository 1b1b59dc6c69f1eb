/**
 * Early access (issue 38, decision 035): Community members who switch on 'Try new features first' (Settings) get
 * the features listed here before everyone else. Zod-free: the Settings card and the pages that gate a feature read
 * it, and so does the server.
 *
 * A feature here is on for a member when earlyAccessFrom(their plan, their saved switch) is true. When a feature
 * graduates it leaves this list and its pages stop asking (it is then everyone's); the registry never lists a
 * feature that is not built.
 */

/** The plan that includes early access ('Early access' in PLAN_FEATURES.community). */
export const EARLY_ACCESS_PLAN = 'community';

export interface EarlyAccessFeature {
  name: string;
  /** One sentence for the Settings card: what it is and where to find it. */
  description: string;
}

export const EARLY_ACCESS_FEATURES = {
  'route-map': {
    name: 'Route map',
    description:
      "A map of your ride's route on its 'Requests along this route' page: origin, stops and destination in order, " +
      'with the requests along it. Drawn from the places you chose, so it needs no map service.',
  },
} as const satisfies Record<string, EarlyAccessFeature>;

export type EarlyAccessFeatureId = keyof typeof EARLY_ACCESS_FEATURES;

/** The features in the order the Settings card lists them. */
export const earlyAccessFeatureList = (): (EarlyAccessFeature & { id: EarlyAccessFeatureId })[] =>
  (Object.keys(EARLY_ACCESS_FEATURES) as EarlyAccessFeatureId[]).map((id) => ({ id, ...EARLY_ACCESS_FEATURES[id] }));

/**
 * Whether early-access features are on for a member: a Community plan AND the saved switch. A member who returns to
 * Free or moves to Plus loses them at once; the saved switch is kept, so they come back with Community.
 */
export const earlyAccessFrom = (plan: string | null | undefined, saved: boolean): boolean =>
  plan === EARLY_ACCESS_PLAN && saved;

export const EARLY_ACCESS_TEXT = {
  title: 'Try new features first',
  description: 'Use new features before everyone else while we finish them. They may change, or have rough edges.',
  switchLabel: 'Early access',
  featuresHeading: 'Early-access features',
  needsPlan: 'Early access comes with the Community plan.',
  getPlan: 'Get Community',
  keptSwitch: 'Your choice is kept: early access turns back on when you are on Community again.',
  on: 'Early access on',
  off: 'Early access off',
  badInput: "'on' must be true or false",
} as const;

import type { RegisteredUserDashboardFeatureConfigurations } from '@aws-sdk/client-quicksight';

/**
 * The features an embedded dashboard may offer its registered users, by the names of
 * `RegisteredUserDashboardFeatureConfigurations` in GenerateEmbedUrlForRegisteredUser
 * (`AmazonQInQuickSight` is its executive summary). The deployment's `dashboardFeatures`
 * lists the ones it turns on; the embed function asks QuickSight for exactly those.
 */
export const DASHBOARD_FEATURES = [
  'StatePersistence',
  'Bookmarks',
  'SharedView',
  'Schedules',
  'ThresholdAlerts',
  'RecentSnapshots',
  'DashboardCustomizationSummary',
  'AmazonQInQuickSight',
] as const satisfies readonly (keyof RegisteredUserDashboardFeatureConfigurations)[];

/** Each member of the SDK model has its name here: a member the model gains fails the type check until it is added. */
type Unnamed = Exclude<keyof RegisteredUserDashboardFeatureConfigurations, (typeof DASHBOARD_FEATURES)[number]>;
const _everyModelMemberNamed: [Unnamed] extends [never] ? true : Unnamed = true;

export type DashboardFeature = (typeof DASHBOARD_FEATURES)[number];

/** What a deployment turns on when its configuration says nothing: the features embedded dashboards had before. */
export const DEFAULT_DASHBOARD_FEATURES: readonly DashboardFeature[] = ['StatePersistence', 'Bookmarks'];

const isDashboardFeature = (name: string): name is DashboardFeature =>
  (DASHBOARD_FEATURES as readonly string[]).includes(name);

/** The features the deprecated `dashboardStatePersistence` turned on, and off when false. */
const STATE_PERSISTENCE_FEATURES: readonly DashboardFeature[] = ['StatePersistence', 'Bookmarks'];

/**
 * The deployment's features: its `dashboardFeatures` (the default when it names none), less
 * StatePersistence and Bookmarks when the deprecated `dashboardStatePersistence` is false. An
 * empty list is no feature at all.
 */
export function deploymentDashboardFeatures(
  features: readonly DashboardFeature[] | undefined,
  statePersistence?: boolean,
): DashboardFeature[] {
  const listed = [...(features ?? DEFAULT_DASHBOARD_FEATURES)];
  return statePersistence === false ? listed.filter((name) => !STATE_PERSISTENCE_FEATURES.includes(name)) : listed;
}

/**
 * EMBED_DASHBOARD_FEATURES's value for no feature: a word, so that "none" is never taken for a
 * variable left unset (which means the default).
 */
const NO_DASHBOARD_FEATURES = 'none';

/** The value of EMBED_DASHBOARD_FEATURES that names `features`. */
export const dashboardFeaturesVariable = (features: readonly DashboardFeature[]): string =>
  features.length === 0 ? NO_DASHBOARD_FEATURES : features.join(',');

/** The features a value of EMBED_DASHBOARD_FEATURES names, and the names in it that are not features. */
export function readDashboardFeaturesVariable(value: string): {
  readonly features: DashboardFeature[];
  readonly unknown: string[];
} {
  if (value.trim() === NO_DASHBOARD_FEATURES) return { features: [], unknown: [] };
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return { features: names.filter(isDashboardFeature), unknown: unknownDashboardFeatures(names) };
}

/** The names in `names` that are not features, for a clear refusal. */
export function unknownDashboardFeatures(names: readonly string[]): string[] {
  return names.filter((name) => !isDashboardFeature(name));
}

/** Every feature, each on when `enabled` names it: what is off is said so, not left to QuickSight's defaults. */
export function featureConfigurations(
  enabled: readonly DashboardFeature[],
): RegisteredUserDashboardFeatureConfigurations {
  const on = (feature: DashboardFeature) => ({ Enabled: enabled.includes(feature) });
  return {
    StatePersistence: on('StatePersistence'),
    Bookmarks: on('Bookmarks'),
    SharedView: on('SharedView'),
    Schedules: on('Schedules'),
    ThresholdAlerts: on('ThresholdAlerts'),
    RecentSnapshots: on('RecentSnapshots'),
    DashboardCustomizationSummary: on('DashboardCustomizationSummary'),
    AmazonQInQuickSight: { ExecutiveSummary: on('AmazonQInQuickSight') },
  };
}

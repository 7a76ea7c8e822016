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
export const EVERY_MODEL_MEMBER_NAMED: [Unnamed] extends [never] ? true : Unnamed = true;

export type DashboardFeature = (typeof DASHBOARD_FEATURES)[number];

/** What a deployment turns on when its configuration says nothing: the features embedded dashboards had before. */
export const DEFAULT_DASHBOARD_FEATURES: readonly DashboardFeature[] = ['StatePersistence', 'Bookmarks'];

export const isDashboardFeature = (name: string): name is DashboardFeature =>
  (DASHBOARD_FEATURES as readonly string[]).includes(name);

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

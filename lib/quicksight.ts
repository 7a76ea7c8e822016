import { Aws } from 'aws-cdk-lib';
import { ENV } from '#contracts/env.ts';

/** Where the product's QuickSight users and dashboards live. */
export interface QuickSightTarget {
  /** Account of the QuickSight subscription. */
  readonly accountId: string;
  readonly namespace: string;
  /** Region of QuickSight user management (the identity region). */
  readonly identityRegion: string;
  /** Region of the dashboards (the stack's region). */
  readonly dashboardRegion: string;
}

/**
 * ARNs the functions are authorized on. Users are created at run time (one per portal
 * account, named by email) and dashboards are registered by administrators, so both are
 * addressed by pattern, within one account, one region and one namespace. Users and groups
 * live in the identity region; dashboards, datasets, data sources and their ingestions in the
 * dashboards' region (resource types of "Actions, resources, and condition keys for Amazon
 * QuickSight", Service Authorization Reference).
 */
export function quickSightArns(target: QuickSightTarget) {
  const prefix = (region: string) => `arn:${Aws.PARTITION}:quicksight:${region}:${target.accountId}`;
  const identity = prefix(target.identityRegion);
  const dashboardRegion = prefix(target.dashboardRegion);
  return {
    usersInNamespace: `${identity}:user/${target.namespace}/*`,
    namespace: `${identity}:namespace/${target.namespace}`,
    /** Every group of the namespace: what ListGroups is authorized on. */
    groupsInNamespace: `${identity}:group/${target.namespace}/*`,
    /** The groups whose names start with `namePrefix` (the portal's company groups). */
    groupsNamed: (namePrefix: string) => `${identity}:group/${target.namespace}/${namePrefix}*`,
    dashboards: `${dashboardRegion}:dashboard/*`,
    /** Every dataset: those behind the catalogue's dashboards are chosen by QuickSight authors. */
    dataSets: `${dashboardRegion}:dataset/*`,
    dataSet: (id: string) => `${dashboardRegion}:dataset/${id}`,
    dataSource: (id: string) => `${dashboardRegion}:datasource/${id}`,
    ingestionsOf: (dataSetId: string) => `${dashboardRegion}:dataset/${dataSetId}/ingestion/*`,
  };
}

/** The QuickSight settings every function that calls QuickSight reads. */
export function quickSightEnvironment(target: QuickSightTarget): Record<string, string> {
  return {
    [ENV.quicksightAccountId]: target.accountId,
    [ENV.quicksightNamespace]: target.namespace,
    [ENV.quicksightIdentityRegion]: target.identityRegion,
  };
}

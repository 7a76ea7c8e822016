import { Aws } from 'aws-cdk-lib';

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
 * addressed by pattern, within one account, one region and one namespace.
 */
export function quickSightArns(target: QuickSightTarget) {
  const prefix = (region: string) => `arn:${Aws.PARTITION}:quicksight:${region}:${target.accountId}`;
  return {
    usersInNamespace: `${prefix(target.identityRegion)}:user/${target.namespace}/*`,
    namespace: `${prefix(target.identityRegion)}:namespace/${target.namespace}`,
    dashboards: `${prefix(target.dashboardRegion)}:dashboard/*`,
  };
}

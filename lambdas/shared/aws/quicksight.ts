import { QuickSightClient } from '@aws-sdk/client-quicksight';
import { ENV } from '../../../contracts/env.ts';
import { optionalEnv, region } from '../env.ts';
import { clientConfig } from './config.ts';

/** Dashboards, permissions and embed URLs live in the function's region. */
export const quicksight = new QuickSightClient(clientConfig(ENV.quicksightEndpoint));

const identityRegion = optionalEnv(ENV.quicksightIdentityRegion) ?? region();

/** User management calls must go to the account's QuickSight identity region. */
export const quicksightIdentity =
  identityRegion === region() ? quicksight : new QuickSightClient(clientConfig(ENV.quicksightEndpoint, identityRegion));

export const quicksightIdentityRegion = identityRegion;

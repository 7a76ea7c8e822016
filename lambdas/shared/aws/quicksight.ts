import { QuickSightClient } from '@aws-sdk/client-quicksight';
import { ENV } from '#contracts/env.ts';
import { optionalEnv, region } from '../env.ts';
import { clientConfig } from './config.ts';

/** Dashboards, permissions and embed URLs live in the function's region. */
export const quicksight = new QuickSightClient(clientConfig(ENV.quicksightEndpoint));

const identityRegion = optionalEnv(ENV.quicksightIdentityRegion) ?? region();

/** User management calls must go to the account's QuickSight identity region. */
export const quicksightIdentity =
  identityRegion === region() ? quicksight : new QuickSightClient(clientConfig(ENV.quicksightEndpoint, identityRegion));

export const quicksightIdentityRegion = identityRegion;

let quicksightCalls = 0;
const countCalls = (client: QuickSightClient) =>
  client.middlewareStack.add(
    (next) => async (args) => {
      quicksightCalls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'portalQuickSightCallCounter' },
  );
countCalls(quicksight);
if (quicksightIdentity !== quicksight) countCalls(quicksightIdentity);

/** QuickSight API calls this environment has made (retries not counted): the check reports its own. */
export const quickSightCallCount = (): number => quicksightCalls;

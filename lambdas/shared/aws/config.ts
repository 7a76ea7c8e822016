import { ENV } from '#contracts/env.ts';
import { optionalEnv, region } from '../env.ts';

type EndpointVariable =
  | typeof ENV.cognitoEndpoint
  | typeof ENV.dynamodbEndpoint
  | typeof ENV.quicksightEndpoint
  | typeof ENV.sesEndpoint
  | typeof ENV.s3Endpoint;

/**
 * Settings shared by every SDK client: the region, an endpoint override when local mode
 * sets one, and the standard retry mode (backoff with jitter on throttling and 5xx).
 */
export const clientConfig = (endpointVariable: EndpointVariable, clientRegion: string = region()) => ({
  region: clientRegion,
  endpoint: optionalEnv(endpointVariable),
  retryMode: 'standard' as const,
  maxAttempts: 3,
});

/** Whether an AWS SDK error is the named service exception. */
export const isAwsError = (error: unknown, ...names: string[]): error is Error =>
  error instanceof Error && names.includes(error.name);

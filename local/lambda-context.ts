import type { Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID } from '#clients/local-stack.ts';

export const DEFAULT_FUNCTION_TIMEOUT_MS = 30_000;
const MEMORY_MB = '512';

/** The Lambda context of one invocation, with the timing Middy and Powertools read from it. */
export function lambdaContext(
  functionName: string,
  requestId: string,
  region: string,
  timeoutMs = DEFAULT_FUNCTION_TIMEOUT_MS,
): Context {
  const deadline = Date.now() + timeoutMs;
  const unsupported = () => {
    throw new Error('Callback-style completion is not used by the handlers of this product');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: MEMORY_MB,
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/[$LATEST]${functionName}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

export class FunctionTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'FunctionTimeoutError';
  }
}

/** Runs one invocation and fails as Lambda does when it outlives the function's timeout. */
export async function invokeWithTimeout<T>(run: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FunctionTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

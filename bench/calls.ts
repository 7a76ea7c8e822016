import type { AwsStub } from 'aws-sdk-client-mock';

/** Calls counted per API in the order first made, e.g. `Cognito GetUser 2, DynamoDB Query 1`; `none` when empty. */
export const tally = (names: readonly string[]): string => {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name} ${count}`).join(', ') || 'none';
};

/** The operation names of the calls a client mock received, each after `prefix` (`Cognito `). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commandNames = (stub: AwsStub<any, any, any>, prefix: string): string[] =>
  stub.calls().map((call) => `${prefix}${String((call.args[0] as object).constructor.name).replace(/Command$/, '')}`);

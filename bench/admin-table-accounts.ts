import { CognitoIdentityProviderClient, ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createConfirmedAccount } from '#clients/cognito.ts';
import type { StackInfo } from '#clients/local-stack.ts';

/**
 * The admin-table bench's accounts: the same pseudo-random bench addresses every run, created
 * in the local pool (as many as the run needs, concurrently), and the queries typed into the
 * table's filter, which match bench accounts by a code no seeded account has.
 */

export interface Scale {
  readonly sizes: readonly [number, number];
  readonly openRuns: number;
  readonly keystrokeCycles: number;
}

const CREATE_CONCURRENCY = 16;
/**
 * Letters that occur in no seeded address, in no UUID (the usernames) and not in
 * 'bench' or 'example.com', so a query of them matches bench accounts by their code only.
 */
const CODE_LETTERS = 'gjkqtvwyz';
const CODE_LENGTH = 6;

/** A deterministic pseudo-random sequence (mulberry32), so every run creates the same accounts. */
function randomSequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function benchEmails(count: number): string[] {
  const next = randomSequence(2026);
  const codes = new Set<string>();
  while (codes.size < count) {
    codes.add(
      Array.from({ length: CODE_LENGTH }, () => CODE_LETTERS[Math.floor(next() * CODE_LETTERS.length)]).join(''),
    );
  }
  return [...codes].map((code) => `bench.${code}@example.com`);
}

/** Searches whose every keystroke changes the number of rows at both scales: 'a', 'ab', back to 'a', back to ''. */
export function pickQueries(emails: readonly string[], scale: Scale, seeded: number): string[] {
  const counts = (query: string, total: number) =>
    emails.slice(0, total - seeded).filter((e) => e.includes(query)).length;
  const chosen: string[] = [];
  for (const first of CODE_LETTERS) {
    for (const second of CODE_LETTERS) {
      const pair = `${first}${second}`;
      const good = scale.sizes.every((total) => {
        const [one, two] = [counts(first, total), counts(pair, total)];
        return two > 0 && two < one && one < total;
      });
      if (good && !chosen.some((q) => q[0] === first)) chosen.push(pair);
    }
    if (chosen.length === scale.keystrokeCycles) return chosen;
  }
  throw new Error('No search queries narrow the table at both scales');
}

const cognitoClient = (stack: StackInfo) =>
  new CognitoIdentityProviderClient({
    endpoint: stack.cognito.endpoint,
    region: stack.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** The accounts already in the pool (the seed's demo accounts), counted rather than assumed. */
export async function countAccounts(stack: StackInfo): Promise<number> {
  const cognito = cognitoClient(stack);
  try {
    let total = 0;
    let token: string | undefined;
    do {
      const page = await cognito.send(
        new ListUsersCommand({ UserPoolId: stack.cognito.userPoolId, Limit: 60, PaginationToken: token }),
      );
      total += page.Users?.length ?? 0;
      token = page.PaginationToken;
    } while (token);
    return total;
  } finally {
    cognito.destroy();
  }
}

export async function createAccounts(stack: StackInfo, emails: readonly string[]): Promise<void> {
  const cognito = cognitoClient(stack);
  let index = 0;
  const worker = async () => {
    while (index < emails.length) {
      const email = emails[index++]!;
      await createConfirmedAccount(cognito, stack.cognito.userPoolId, {
        email,
        password: 'Bench#Passw0rd',
        groups: ['Users'],
      });
    }
  };
  try {
    await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  } finally {
    cognito.destroy();
  }
}

import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { createEnrolledAccount } from './enrolled-account.ts';
import { stackPool } from './stack.ts';
import { totpStep, type TotpLedger } from './totp-ledger.ts';

/**
 * Administrators besides the demo admin, for the journeys in which who the administrator is does
 * not matter. The identity provider, as Cognito, takes an account's code once per 30-second step,
 * so journeys that each signed the demo admin in waited up to 30 s for the next step whenever the
 * previous file had just done the same: measured, 7 such waits of 14 s on average in one run. Each
 * journey now signs in the administrator whose code was used longest ago (support/auth.ts).
 */
const POOL_SIZE = 2;
const PASSWORD = 'PoolAdmin#2026';

/**
 * Creates the pool's administrators in the stack's user pool as the seed creates the demo admin:
 * a confirmed account in Admins, signed in once to enrol an authenticator, which becomes its
 * preferred factor. Made outside the portal, they reach its copy of the directory with a full
 * listing, as the users page's Refresh makes one. Resolves with their credentials and the steps
 * their enrolment used.
 */
export async function createAdminPool(stack: StackInfo): Promise<{ admins: DemoAccount[]; used: TotpLedger }> {
  const pool = stackPool(stack);
  const admins: DemoAccount[] = [];
  const used: TotpLedger = {};
  let accessToken = '';
  try {
    for (let index = 1; index <= POOL_SIZE; index += 1) {
      const email = `pool.admin.${index}@example.com`;
      const enrolled = await createEnrolledAccount(
        pool,
        { email, password: PASSWORD, groups: ['Admins'] },
        'End-to-end pool',
      );
      // Taken after the code was: the step recorded is never earlier than the one used.
      used[enrolled.secret] = used[email] = totpStep();
      accessToken = enrolled.accessToken;
      admins.push({ email, password: PASSWORD, totpSecret: enrolled.secret });
    }
  } finally {
    pool.client.destroy();
  }
  const listing = await fetch(stack.functions.quicksightAdmin, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS', fullListing: true }),
  });
  if (!listing.ok)
    throw new Error(`The full listing of the directory answered ${listing.status}: ${await listing.text()}`);
  return { admins, used };
}

import { dashboardId as dashboardIdRule } from '#contracts/fields.ts';
import { EXIT, TARGET_USAGE, UsageError, parseCommand, runTool } from './support/cli.ts';
import { VERIFY_PREFIX } from '#contracts/verification.ts';

const USAGE = `Usage: npm run verify-deployment [-- options]

Smoke test of the deployed portal (from the stack's outputs) or, with --local, of the local
stack: a temporary administrator and user (${VERIFY_PREFIX}*@example.com) sign in with SRP and a
new authenticator, every function URL and GraphQL is called as the SPA calls it, the site's
headers and config.json are checked, the company-access check runs (as the daily schedule
runs it, without mending) and its differences are listed, and everything created is deleted
again, also when a step fails, with the temporary user's usage record. Left behind on purpose,
and listed at the end: the temporary administrator's audit entries (marked verification), one
support test message sent from and to sesSenderAddress only, the dashboard's last-viewed time.
Needs administrator rights on the user pool (AdminCreateUser, AdminDeleteUser, ...) and read and
write access to the Audit and Usage tables through the credentials.

Options:
  --dashboard-id ID    a QuickSight dashboard to embed (its catalogue entry is made for the
                       test when missing); without it the embed function must answer 403
${TARGET_USAGE}
  -h, --help           this text`;

async function main(args: readonly string[]): Promise<number> {
  const command = parseCommand(args, { 'dashboard-id': { type: 'string' } }, 0);
  if (command.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  const given = command.values['dashboard-id'];
  let dashboardId: string | undefined;
  if (typeof given === 'string') {
    const checked = dashboardIdRule.safeParse(given);
    if (!checked.success)
      throw new UsageError(`--dashboard-id: ${checked.error.issues[0]?.message ?? 'invalid'} (got "${given}")`);
    dashboardId = checked.data;
  }

  // The SDK and the target's clients load once the command line is known to be good.
  const [{ resolveTarget }, { verifyDeployment }] = await Promise.all([
    import('./support/target.ts'),
    import('./support/verify-steps.ts'),
  ]);
  const target = await resolveTarget(command.target);
  try {
    const started = performance.now();
    const passed = await verifyDeployment(target, {
      write: (line) => console.log(line),
      ...(dashboardId !== undefined && { dashboardId }),
    });
    const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
    console.log(
      passed ? `\nThe deployment works (${took}).` : `\nVerification failed (${took}): see the failed steps above.`,
    );
    return passed ? EXIT.ok : EXIT.failed;
  } finally {
    target.close();
  }
}

runTool(USAGE, main);

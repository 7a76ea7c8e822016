import { adminEmail } from '#contracts/fields.ts';
import { EXIT, TARGET_USAGE, UsageError, parseCommand, runTool } from './support/cli.ts';

const USAGE = `Usage: npm run create-admin -- <email> [options]

Creates an administrator of the deployed portal (the user pool from the stack's outputs) or,
with --local, of the local stack: a confirmed account in the Admins group. Cognito emails
the invitation with a temporary password; the first sign-in sets a new password and the
authenticator app. Running it again for an administrator changes nothing.

Options:
  --show-password      print a generated temporary password once instead of emailing it
  --promote            add an existing account that is not an administrator to Admins
${TARGET_USAGE}
  -h, --help           this text`;

async function main(args: readonly string[]): Promise<number> {
  const command = parseCommand(
    args,
    { 'show-password': { type: 'boolean', default: false }, promote: { type: 'boolean', default: false } },
    1,
  );
  if (command.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  const [given] = command.positionals;
  if (given === undefined) throw new UsageError('Give the email address of the administrator to create.');
  const checked = adminEmail.safeParse(given);
  if (!checked.success) throw new UsageError(`${checked.error.issues[0]?.message ?? 'Invalid email'}: "${given}"`);
  const email = checked.data.toLowerCase();

  // The SDK and the target's clients load once the command line is known to be good.
  const [{ resolveTarget }, { createAdmin }] = await Promise.all([
    import('./support/target.ts'),
    import('./support/accounts.ts'),
  ]);
  const target = await resolveTarget(command.target);
  try {
    const outcome = await createAdmin(target, email, {
      showPassword: command.values['show-password'] === true,
      promote: command.values.promote === true,
    });
    const signIn = `${target.siteUrl}/admin/login`;
    switch (outcome.kind) {
      case 'already-admin':
        console.log(`${email} is already an administrator of ${target.description}. Nothing was changed.`);
        break;
      case 'promoted':
        console.log(
          `${email} is now an administrator of ${target.description} (added to Admins). It takes effect at the next sign-in: ${signIn}`,
        );
        break;
      case 'invited':
        console.log(
          `Created administrator ${email} in ${target.description}. Cognito has emailed a temporary password` +
            `${target.local ? ` (local mode: see the inbox at ${target.local.mail.inboxUrl})` : ''}.\n` +
            `Sign in at ${signIn}: the first sign-in sets a new password and the authenticator app.`,
        );
        break;
      case 'created':
        console.log(
          `Created administrator ${email} in ${target.description}.\n` +
            `Temporary password (shown once, not stored): ${outcome.temporaryPassword}\n` +
            `Sign in at ${signIn}: the first sign-in sets a new password and the authenticator app.`,
        );
        break;
    }
    return EXIT.ok;
  } finally {
    target.close();
  }
}

runTool(USAGE, main);

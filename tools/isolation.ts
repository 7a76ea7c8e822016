import { VERIFY_PREFIX } from '#contracts/verification.ts';
import { EXIT, TARGET_USAGE, parseCommand, runTool } from './support/cli.ts';

const USAGE = `Usage: npm run isolation [-- options]

Proves that no user sees another company's rows, on the deployed portal (from the stack's
outputs) or, with --local, on the local stack. Temporary accounts (${VERIFY_PREFIX}*@example.com),
one per company, an owner of two companies and one in no company, are assigned every
company-scoped dashboard of the catalogue; the rows each sees of every company are recorded on
every path a user's rows take (the embedded dashboard as drawn, GraphQL, and the file a
subscription mails: a CSV QuickSight makes for an anonymous user tagged with the user's
companies, as the delivery function has it made) and printed as a matrix with the
cross-company count. A dashboard whose datasets lack the company tag rules is not deliverable:
no file of it is made. Then: a removed assignment, a deleted company and an ended
session must show nothing, and every user's QuickSight group memberships must equal the
portal's records. Everything created is removed again, also when a step fails.
Against AWS the rows a dashboard frame draws cannot be read from this host: the tool proves
what QuickSight's API shows instead (groups and members, the rules file and dataset, every
scoped dataset's rules attached and ENABLED over a company column) and says what it could not see.
Exit code 0: isolated; 1: a cross-company row, a difference or a failed step; 2: bad usage.

Options:
${TARGET_USAGE}
  -h, --help           this text`;

async function main(args: readonly string[]): Promise<number> {
  const command = parseCommand(args, {}, 0);
  if (command.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  // The SDK, the target's clients and the browser load once the command line is known to be good.
  const [{ resolveTarget }, { quicksightReader }, { localEmbedBrowser }, { EmailedFiles }, { proveIsolation }] =
    await Promise.all([
      import('./support/target.ts'),
      import('./support/isolation-api.ts'),
      import('./support/isolation-pages.ts'),
      import('./support/isolation-files.ts'),
      import('./support/isolation-steps.ts'),
    ]);
  const target = await resolveTarget(command.target);
  try {
    const quicksight = await quicksightReader(target, command.target);
    try {
      const started = performance.now();
      const browser = target.local ? await localEmbedBrowser(command.target.dataDir) : undefined;
      const files = await EmailedFiles.open(quicksight, target.local ? command.target.dataDir : undefined);
      const outcome = await proveIsolation(target, {
        write: (line) => console.log(line),
        quicksight,
        files,
        ...(browser && { browser }),
      });
      const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
      console.log(
        outcome.passed
          ? `\nNo user saw another company's rows (${took}).`
          : `\nIsolation NOT proven (${took}): see the failures above.`,
      );
      return outcome.passed ? EXIT.ok : EXIT.failed;
    } finally {
      quicksight.close();
    }
  } finally {
    target.close();
  }
}

runTool(USAGE, main);

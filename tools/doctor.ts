import { EXIT, TARGET_USAGE, parseCommand, runTool } from './support/cli.ts';
import { hasBlocker, summary } from './support/report.ts';

const USAGE = `Usage: npm run doctor [-- options]

Checks, with read-only calls, that the AWS account and the configuration are ready for a
deployment (or, with --local, that the running local stack answers the same checks), and
prints each item with how to fix it: among them the QuickSight author the row-level-security
rules are granted to (quicksightAuthorArn) and SPICE capacity for the rules. Once the stack is
deployed it also checks row-level security: the rules dataset exists and its last load
completed, its data source was created (or QuickSight's reason it failed) and is visible to the
author, every dataset behind every catalogue dashboard applies it (a dashboard that does not is
a warning), and no company name holds a comma or a double quote (the rules would read it as
several companies). Exits 1 when something blocks a deployment.

Options:
${TARGET_USAGE}
  -h, --help           this text`;

async function main(args: readonly string[]): Promise<number> {
  const command = parseCommand(args, {}, 0);
  if (command.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  const write = (line: string) => console.log(line);
  const { awsChecklist, localChecklist } = await import('./support/doctor-checklists.ts');
  const results = command.target.local
    ? await localChecklist(command.target, write)
    : await awsChecklist(command.target, write);
  write('');
  write(summary(results, command.target.local ? 'The local stack answers every check' : 'Ready to deploy'));
  return hasBlocker(results) ? EXIT.failed : EXIT.ok;
}

runTool(USAGE, main);

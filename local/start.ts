/**
 * `npm start [-- --reset] [--data-dir DIR] [--port-base N] [--host ADDRESS]`: the whole
 * portal on this machine. Ctrl-C (or SIGTERM) stops every service.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PORT_BASE } from './ports.ts';
import { EXIT_WITH_PARENT_ENV } from './stack-process.ts';
import { READY_LINE_PREFIX, type StackInfo, DEFAULT_DATA_DIR } from '#clients/local-stack.ts';
import { launcherChain, watchProcesses } from './launcher-watch.ts';
import { startStack, type RunningLocalStack } from './stack.ts';

// Local mode supports Node 20; the SDK's notice about its future Node 22 floor is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm start -- [--reset] [--data-dir DIR] [--port-base N] [--host ADDRESS]
  --reset          start from an empty data directory
  --data-dir DIR   where local state is kept (default ${DEFAULT_DATA_DIR})
  --port-base N    first of the ports the services listen on (default ${DEFAULT_PORT_BASE})
  --host ADDRESS   address to listen on (default 127.0.0.1)`;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      reset: { type: 'boolean', default: false },
      'data-dir': { type: 'string', default: DEFAULT_DATA_DIR },
      'port-base': { type: 'string', default: String(DEFAULT_PORT_BASE) },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const portBase = Number(values['port-base']);
  if (!Number.isInteger(portBase)) throw new Error(`--port-base must be a whole number, got "${values['port-base']}"`);
  return { reset: values.reset, dataDir: values['data-dir'], portBase, host: values.host, help: values.help };
}

function summary(info: StackInfo): string {
  const rows: [string, string][] = [
    ['Identity provider (Cognito)', info.cognito.endpoint],
    ['GraphQL API (AppSync)', info.graphqlUrl],
    ...Object.entries(info.functions).map(([name, url]): [string, string] => [`Function URL ${name}`, url]),
    ['QuickSight', info.quicksight.endpoint],
    ['DynamoDB', info.dynamodb.endpoint],
    ['Mail inbox', info.mail.inboxUrl],
    ['Captured mail (JSON)', info.mail.apiUrl],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const account = (label: string, a: StackInfo['demo']['admin']) =>
    `  ${label} ${a.email} / ${a.password}   (authenticator code: npm run totp -- ${a.email})`;
  return [
    ...rows.map(([label, url]) => `  ${label.padEnd(width)}  ${url}`),
    `${READY_LINE_PREFIX}${info.webUrl}`,
    account('Demo admin:', info.demo.admin),
    account('Demo user: ', info.demo.user),
    account('Demo owner:', info.demo.owner),
    `  Mail inbox: ${info.mail.inboxUrl}   (sign-up links, invitations and reset codes land here)`,
    `  Dashboards: ${info.quicksight.embedPagesUrl}   (https with a self-signed certificate: open it once in your browser and accept it, or the dashboard frame stays empty)`,
  ].join('\n');
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions();
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }

  let stack: RunningLocalStack | undefined;
  const abandonStart = new AbortController();
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) {
      console.error('Stopping immediately.');
      process.exit(1);
    }
    stopping = true;
    console.log(`\n${reason}: stopping the local stack...`);
    if (!stack) {
      // Start-up stops what it has started and rejects; main() exits then.
      abandonStart.abort();
      return;
    }
    void stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('Interrupted'));
  process.on('SIGTERM', () => stop('Terminated'));
  // `npm start` runs npm -> sh -> this process (tsx is loaded into it); npm passes SIGTERM to its shell only.
  const launchers = launcherChain(process.env.npm_lifecycle_event === 'start' ? 2 : 1);
  watchProcesses(launchers, () => stop('The command that started the stack ended'));
  if (process.env[EXIT_WITH_PARENT_ENV] === '1') {
    // Started by a test or bench: stop when that process goes away without stopping us.
    process.stdin.on('end', () => stop('Parent process ended'));
    process.stdin.resume();
  }
  process.on('unhandledRejection', (reason) => {
    console.error(
      'Unhandled rejection in the local stack:',
      reason instanceof Error ? (reason.stack ?? reason.message) : reason,
    );
  });

  // The SDK's notice about future Node.js versions concerns the machine running local mode,
  // not the product (its functions run on the newest Lambda runtime); it would bury the output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  console.log(`Starting the local stack (data in ${options.dataDir}${options.reset ? ', reset' : ''})...`);
  try {
    stack = await startStack({ ...options, log: (line) => console.log(line), signal: abandonStart.signal });
  } catch (error) {
    if (abandonStart.signal.aborted) process.exit(0);
    console.error(
      `The local stack could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  }
  if (stopping) {
    // The signal came as start-up was finishing.
    await stack.close();
    process.exit(0);
  }
  console.log(summary(stack.info));
}

await main();

import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FunctionTimeoutError } from '../lambda-context.ts';

/**
 * A deployed function run locally as Lambda runs it: its bundle in an execution environment
 * of its own (a worker thread) with exactly its environment variables, an init phase whose
 * failure fails every invocation, a timeout after which the environment is discarded, and a
 * fresh environment after a crash.
 *
 * As in Lambda, the function's timeout counts the invocation, not the init phase before it,
 * which has a limit of its own: "The Init phase is limited to 10 seconds"
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html).
 */

/** Lambda's limit on an on-demand function's init phase. */
const INIT_LIMIT_MS = 10_000;

export interface LocalFunctionOptions {
  /** Function name (the context's functionName, log prefix). */
  readonly name: string;
  readonly bundle: string;
  readonly handlerExport: string;
  /** The function's whole process.env. */
  readonly environment: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly memoryMb: number;
  readonly region: string;
  readonly accountId: string;
  /** The init phase's limit: Lambda's unless a test sets a shorter one. */
  readonly initLimitMs?: number;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout | undefined };
type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; error: SerializedError }
  | { type: 'result'; id: string; result: unknown }
  | { type: 'error'; id: string; error: SerializedError };
type SerializedError = { name: string; message: string; stack?: string };

/** An error the handler threw (or its init phase), with the handler's name and stack. */
export class FunctionError extends Error {
  constructor(error: SerializedError) {
    super(error.message);
    this.name = error.name;
    if (error.stack) this.stack = error.stack;
  }
}

const WORKER_SCRIPT = fileURLToPath(new URL('./worker.mjs', import.meta.url));

export class LocalFunction {
  private worker: Worker | undefined;
  /** Whether the current environment's init phase has ended (its bundle loaded, or failed to). */
  private initialized = false;
  /** Invocations waiting for the init phase to end before their timeout starts. */
  private readonly waitingForInit = new Map<string, () => void>();
  private initTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(readonly options: LocalFunctionOptions) {}

  get functionArn(): string {
    return `arn:aws:lambda:${this.options.region}:${this.options.accountId}:function:${this.options.name}`;
  }

  /** Starts the execution environment now rather than at the first invocation. */
  warm(): void {
    this.environment();
  }

  private environment(): Worker {
    if (this.closed) throw new Error(`Function ${this.options.name} is stopped`);
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SCRIPT, {
      workerData: { bundle: this.options.bundle, handlerExport: this.options.handlerExport },
      env: { ...this.options.environment },
      // The handler sees no flags of the local stack's own process (tsx's loader among them).
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      name: this.options.name,
    });
    worker.unref();
    this.initialized = false;
    const initLimitMs = this.options.initLimitMs ?? INIT_LIMIT_MS;
    this.initTimer = setTimeout(
      () => this.discard(worker, new Error(`Init phase of ${this.options.name} exceeded ${initLimitMs / 1000} s`)),
      initLimitMs,
    );
    this.initTimer.unref();
    worker.on('message', (message: WorkerMessage) => this.onMessage(message));
    worker.on('error', (error) => this.discard(worker, error));
    worker.on('exit', (code) => this.discard(worker, new Error(`Runtime exited with error: exit status ${code}`)));
    this.worker = worker;
    return worker;
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'ready' || message.type === 'init-error') {
      if (message.type === 'init-error')
        process.stderr.write(
          `[${this.options.name}] INIT_REPORT Status: error ${message.error.name}: ${message.error.message}\n`,
        );
      this.endInit();
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.type === 'result') pending.resolve(message.result);
    else pending.reject(new FunctionError(message.error));
  }

  /** The init phase ended: the invocations sent meanwhile start their timeouts. */
  private endInit(): void {
    this.initialized = true;
    clearTimeout(this.initTimer);
    const waiting = [...this.waitingForInit.values()];
    this.waitingForInit.clear();
    for (const startTimeout of waiting) startTimeout();
  }

  /** Drops an environment that crashed or timed out: its invocations fail, the next one gets a new environment. */
  private discard(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.initTimer);
    this.waitingForInit.clear();
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
    void worker.terminate();
  }

  /** One synchronous invocation, as a function URL, AppSync or a Cognito trigger makes it. */
  invoke(event: unknown, requestId: string = randomUUID()): Promise<unknown> {
    const worker = this.environment();
    const { name, region, accountId, timeoutMs, memoryMb } = this.options;
    const context = {
      functionName: name,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${region}:${accountId}:function:${name}`,
      memoryLimitInMB: String(memoryMb),
      awsRequestId: requestId,
      logGroupName: `/aws/lambda/${name}`,
      logStreamName: `local/[$LATEST]${name}`,
      // The environment starts the clock its getRemainingTimeInMillis reads when the invocation begins.
      timeoutMs,
    };
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, timer: undefined };
      const startTimeout = () => {
        pending.timer = setTimeout(() => {
          // Lambda stops the environment of a timed-out invocation; the next starts cold.
          this.pending.delete(requestId);
          reject(new FunctionTimeoutError(timeoutMs));
          this.discard(worker, new FunctionTimeoutError(timeoutMs));
        }, timeoutMs);
      };
      this.pending.set(requestId, pending);
      if (this.initialized) startTimeout();
      else this.waitingForInit.set(requestId, startTimeout);
      worker.postMessage({ id: requestId, event, context });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (worker) this.discard(worker, new Error(`Function ${this.options.name} is stopped`));
  }
}

import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

type LogAttributes = Readonly<Record<string, unknown>>;

/**
 * One structured JSON logger per function: Powertools' Logger, with its fields, levels
 * (POWERTOOLS_LOG_LEVEL) and error format, and logged errors' stacks in the source's terms.
 * Request bodies, tokens, passwords, codes and TOTP secrets are never passed to it: the
 * request log records who did which action, with what status, and nothing of the payload.
 *
 * Powertools' Logger (with the Node modules it loads) is loaded by the first request, not when
 * the function starts: the first middleware of each function awaits `ready()`, so every line
 * of a request is written before its answer. A line logged before that is kept and written,
 * in order, as soon as the logger is loaded.
 */
export interface Logger {
  debug(message: string, attributes?: LogAttributes): void;
  info(message: string, attributes?: LogAttributes): void;
  warn(message: string, attributes?: LogAttributes): void;
  error(message: string, attributes?: LogAttributes): void;
  /** The Lambda context of the request (function_request_id, cold_start and the function's fields). */
  addContext(context: Context): void;
  /** Loads the logger (once); resolves when lines are written as they are logged. */
  ready(): Promise<void>;
}

export const createLogger = (serviceName: string): Logger => {
  let loaded: PowertoolsLogger | undefined;
  let loading: Promise<void> | undefined;
  const waiting: ((logger: PowertoolsLogger) => void)[] = [];
  const ready = (): Promise<void> =>
    (loading ??= import('./powertools-logger.ts').then(({ powertoolsLogger }) => {
      loaded = powertoolsLogger(serviceName);
      for (const write of waiting.splice(0)) write(loaded);
    }));
  const use = (write: (logger: PowertoolsLogger) => void): void => {
    if (loaded !== undefined) {
      write(loaded);
      return;
    }
    waiting.push(write);
    void ready();
  };
  const line =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, attributes?: LogAttributes): void =>
      use((logger) => (attributes === undefined ? logger[level](message) : logger[level](message, { ...attributes })));
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    addContext: (context) => use((logger) => logger.addContext(context)),
    ready,
  };
};

// One function's execution environment: a worker thread with its own process.env (the
// function's variables only), which loads the deployed bundle once (the init phase) and
// then runs invocations the main thread sends.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

process.setSourceMapsEnabled(true);

const serialize = (error) =>
  error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };

const unsupported = () => {
  throw new Error('Callback-style completion is not used by the handlers of this product');
};

// As in Lambda, a failed init phase fails each invocation with the init error.
let handler;
let initError;
try {
  const module = await import(pathToFileURL(workerData.bundle).href);
  const exported = module[workerData.handlerExport];
  if (typeof exported !== 'function') {
    throw Object.assign(new Error(`index.${workerData.handlerExport} is undefined or not exported`), {
      name: 'Runtime.HandlerNotFound',
    });
  }
  handler = exported;
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  const failure = serialize(error);
  initError = { ...failure, name: failure.name.startsWith('Runtime.') ? failure.name : 'Runtime.ImportModuleError' };
  parentPort.postMessage({ type: 'init-error', error: initError });
}

parentPort.on('message', async ({ id, event, context }) => {
  const { timeoutMs, ...fields } = context;
  const deadline = Date.now() + timeoutMs;
  const lambdaContext = {
    ...fields,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
  if (initError) {
    parentPort.postMessage({ type: 'error', id, error: initError });
    return;
  }
  try {
    const result = await handler(event, lambdaContext);
    parentPort.postMessage({ type: 'result', id, result });
  } catch (error) {
    parentPort.postMessage({ type: 'error', id, error: serialize(error) });
  }
});

/**
 * The embedding SDK stand-in: it makes the frame the real SDK makes (an iframe in the
 * container), reports content loaded by itself unless told not to, and records the actions.
 * A test file mocks the SDK loader with this module:
 * `vi.mock('#web/features/dashboard/components/sdk-loader.ts', () => import('./support/embedding-sdk.ts'))`.
 */
export const sdk = {
  autoLoad: true,
  failImport: false,
  parameters: [] as { Name: string; Values: string[] }[],
  calls: [] as { method: string; args: unknown[] }[],
  /** What undo and redo answer. */
  answer: { success: true } as unknown,
  emit: (() => undefined) as (event: { eventName: string; message?: unknown }) => void,
  /** Reports a change of the frame (FRAME_LOADED, FRAME_NOT_CREATED) as the SDK's onChange does. */
  change: (() => undefined) as (event: { eventName: string }) => void,
};

export function resetSdk(): void {
  Object.assign(sdk, { autoLoad: true, failImport: false, parameters: [], calls: [], answer: { success: true } });
}

export const loadEmbeddingSdk = async () => {
  if (sdk.failImport) throw new TypeError('Failed to fetch dynamically imported module');
  return {
    createEmbeddingContext: async () => ({
      embedDashboard: async (
        frame: { url: string; container: HTMLElement; onChange?: (event: { eventName: string }) => void },
        content: { onMessage: (event: unknown) => void },
      ) => {
        const iframe = document.createElement('iframe');
        iframe.src = frame.url;
        frame.container.appendChild(iframe);
        sdk.emit = (event) => content.onMessage(event);
        sdk.change = (event) => frame.onChange?.(event);
        if (sdk.autoLoad)
          queueMicrotask(() => content.onMessage({ eventName: 'CONTENT_LOADED', message: { title: 'x' } }));
        const record =
          (method: string, answer: () => unknown = () => ({ success: true })) =>
          async (...args: unknown[]) => {
            sdk.calls.push({ method, args });
            return answer();
          };
        return {
          initiatePrint: record('initiatePrint'),
          reset: record('reset'),
          undo: record('undo', () => sdk.answer),
          redo: record('redo', () => sdk.answer),
          setParameters: record('setParameters'),
          getParameters: async () => sdk.parameters,
        };
      },
    }),
  };
};

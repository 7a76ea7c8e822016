import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

type ToastApi = typeof import('sonner').toast;

/**
 * Toasts through sonner (its defaults: a stack of 3, 4 seconds, 356 px wide). The library is
 * fetched with the first toast, so pages that never notify (the sign-in page) do not load it.
 */
let requested = false;
let resolveReady: ((toast: ToastApi) => void) | null = null;
let ready: Promise<ToastApi> | null = null;
const listeners = new Set<() => void>();

function toastApi(): Promise<ToastApi> {
  ready ??= new Promise<ToastApi>((resolve) => {
    resolveReady = resolve;
    requested = true;
    for (const listener of listeners) listener();
  });
  return ready;
}

export const notify = {
  success: (message: string) => void toastApi().then((toast) => toast.success(message)),
  error: (message: string) => void toastApi().then((toast) => toast.error(message)),
  info: (message: string) => void toastApi().then((toast) => toast.info(message)),
};

const SonnerToaster = lazy(async () => {
  const sonner = await import('sonner');
  function SonnerHost() {
    // Runs after sonner's own effects, so its subscription exists before the first toast.
    useEffect(() => resolveReady?.(sonner.toast), []);
    return <sonner.Toaster closeButton />;
  }
  return { default: SonnerHost };
});

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Mount once at the root. */
export function Toaster() {
  const active = useSyncExternalStore(subscribe, () => requested);
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  );
}

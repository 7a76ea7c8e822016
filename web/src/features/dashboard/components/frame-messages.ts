/**
 * What the portal makes of the embedded dashboard's messages. The SDK itself routes every
 * window message that looks like one of its events, whatever its origin; the portal lets
 * through only those from the embed URL's origin.
 */

/** Texts of the frame's errors (ERROR_OCCURRED's errorCode, as the SDK's README lists them). */
const FRAME_ERROR_MESSAGES = {
  Forbidden: 'The dashboard link has expired or was already used.',
  Unauthorized: 'The dashboard session has ended.',
  AccessDenied: 'QuickSight says you are not allowed to view this dashboard.',
  NotFound: 'QuickSight could not find this dashboard.',
} as const;

export const SDK_LOAD_FAILED_MESSAGE = 'The dashboard viewer could not be loaded. Check your connection and try again.';
export const FRAME_NOT_CREATED_MESSAGE = 'The dashboard did not open in time.';
export const FRAME_SILENT_MESSAGE = 'The dashboard frame opened, but the dashboard page in it did not answer.';

/** The error panel's message for an ERROR_OCCURRED errorCode. */
export function frameErrorMessage(errorCode: unknown): string {
  if (typeof errorCode === 'string' && Object.hasOwn(FRAME_ERROR_MESSAGES, errorCode)) {
    return FRAME_ERROR_MESSAGES[errorCode as keyof typeof FRAME_ERROR_MESSAGES];
  }
  return typeof errorCode === 'string' && /^[\w.-]{1,64}$/.test(errorCode)
    ? `QuickSight could not show the dashboard (${errorCode}).`
    : 'QuickSight could not show the dashboard.';
}

/** Whether a window message has the shape of the SDK's frame messages (an event or an answer). */
export function isFrameMessage(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Record<string, unknown>;
  return (
    typeof message.eventName === 'string' &&
    (typeof message.eventTarget === 'object' || typeof message.eventId === 'string')
  );
}

/**
 * Stops frame-shaped messages from any origin but `origin` before the SDK's listeners see
 * them: a capturing listener on the window runs before the SDK's (bubbling) ones. Returns the
 * function that removes the guard.
 */
export function guardFrameOrigin(target: Window, origin: string): () => void {
  const guard = (event: MessageEvent) => {
    if (event.origin !== origin && isFrameMessage(event.data)) event.stopImmediatePropagation();
  };
  target.addEventListener('message', guard, { capture: true });
  return () => target.removeEventListener('message', guard, { capture: true });
}

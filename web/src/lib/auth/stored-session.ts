/**
 * What the identity library keeps in localStorage, read without loading the library: the
 * sign-in page only needs the library when a session may exist or the visitor signs in.
 */
const PREFIX = 'CognitoIdentityServiceProvider';

const lastAuthUserKey = (clientId: string) => `${PREFIX}.${clientId}.LastAuthUser`;

/** True when tokens of a previous sign-in are stored for this app client. */
export function hasStoredSession(clientId: string, storage: Storage = window.localStorage): boolean {
  const user = storage.getItem(lastAuthUserKey(clientId));
  return !!user && !!storage.getItem(`${PREFIX}.${clientId}.${user}.refreshToken`);
}

/** Whether a storage event concerns the signed-in user of this app client (or cleared everything). */
export function isSessionStorageEvent(event: StorageEvent, clientId: string): boolean {
  return event.key === null || event.key === lastAuthUserKey(clientId);
}

import { createContext, useContext } from 'react';

/**
 * Signs the current account in again with its password and a current authenticator code,
 * replacing the session's tokens. Actions that need a recent sign-in (changing the
 * authenticator) use it when the server answers `reauthenticationRequired`. Kept apart from
 * the main auth context so that only those screens depend on it.
 */
export type Reauthenticate = (password: string, code: string) => Promise<void>;

export const ReauthenticationContext = createContext<Reauthenticate | null>(null);

/** The re-authentication of the surrounding AuthProvider, or null outside one. */
export const useReauthenticate = (): Reauthenticate | null => useContext(ReauthenticationContext);

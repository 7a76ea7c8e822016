import { createContext, useContext } from 'react';
import type { AuthSession, MfaSetupDriver, RememberedDevice, SignInResult, SignUpResult } from './types.ts';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthContextValue {
  readonly status: AuthStatus;
  /** True while the stored session is being checked at start-up. */
  readonly loading: boolean;
  /** The signed-in user, or null. */
  readonly session: AuthSession | null;
  signIn(email: string, password: string): Promise<SignInResult>;
  /** Sign-in with a passkey after the email (passkey-ceremony.ts runs the browser's part). */
  signInWithPasskey(email: string): Promise<SignInResult>;
  confirmTotpCode(code: string): Promise<SignInResult>;
  completeNewPassword(newPassword: string): Promise<SignInResult>;
  /** TOTP enrolment for the account being signed in (MFA_SETUP challenge). */
  signInMfaSetup(): Promise<MfaSetupDriver>;
  cancelSignIn(): Promise<void>;
  /** Re-reads the stored session (after a sign-in finished through the setup wizard). */
  reloadSession(): Promise<AuthSession | null>;
  /** An access token valid for at least the refresh tolerance; refreshes when needed. */
  getAccessToken(): Promise<string>;
  /** Global sign-out; failures are logged and the local session is cleared anyway. */
  signOut(): Promise<void>;
  signUp(email: string, password: string): Promise<SignUpResult>;
  forgotPassword(email: string): Promise<void>;
  confirmForgotPassword(email: string, code: string, newPassword: string): Promise<void>;
  /** Remembers this browser for the signed-in user: its next sign-ins skip the code. */
  rememberDevice(): Promise<void>;
  /** The devices the identity provider tracks for the signed-in user. */
  listDevices(): Promise<RememberedDevice[]>;
  /**
   * Forgets one of the user's devices. Forgetting the device this browser is signs this browser
   * out (its session was bound to the device), with a note for the sign-in page.
   */
  forgetDevice(deviceKey: string): Promise<void>;
  /** Starts loading the identity library early (e.g. when a sign-in form gets focus). */
  preload(): void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}

import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { AuthError, type SignInResult } from '../../lib/auth/types.ts';

/** Auto sign-in after sign-up (user-portal spec, section 9): a try every 5 s for 3 minutes. */
export const AUTO_SIGN_IN_INTERVAL_MS = 5_000;
export const AUTO_SIGN_IN_WAIT_MS = 3 * 60_000;
export const AUTO_SIGN_IN_TIMEOUT_MESSAGE = 'The account was not confirmed on time.';

export type AutoSignIn =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'signedIn'; readonly result: SignInResult }
  | { readonly kind: 'failed'; readonly message: string };

/** Answers that mean "not yet": the link has not been clicked, or the network blinked. */
const KEEP_WAITING: readonly string[] = ['UserNotConfirmedException', 'NetworkError'];

/**
 * Waits for the emailed link to confirm a new account, then signs it in with the password
 * just chosen, so the user goes on to MFA setup without typing it again.
 *
 * Cognito's own "auto sign-in" (InitiateAuth USER_AUTH with the Session that SignUp or
 * ConfirmSignUp returns) does not apply here: the app client allows SRP and refresh only
 * (contracts/user-pool-client.ts, no ALLOW_USER_AUTH), and this pool confirms by link, which
 * Cognito's domain serves in another tab, so no confirmation session ever reaches this page.
 * The page therefore tries an SRP sign-in until the account is confirmed. The password lives
 * only in the caller's memory for as long as the page waits; it is never stored.
 */
export function useAutoSignIn(credentials: { readonly email: string; readonly password: string } | null): AutoSignIn {
  const auth = useAuth();
  const [state, setState] = useState<AutoSignIn>({ kind: 'waiting' });
  const signIn = useRef(auth.signIn);
  signIn.current = auth.signIn;

  useEffect(() => {
    if (!credentials) return;
    let active = true;
    let timer: number | undefined;
    const deadline = Date.now() + AUTO_SIGN_IN_WAIT_MS;
    const attempt = async () => {
      try {
        const result = await signIn.current(credentials.email, credentials.password);
        if (active) setState({ kind: 'signedIn', result });
      } catch (failure) {
        if (!active) return;
        const code = failure instanceof AuthError ? failure.code : '';
        if (!KEEP_WAITING.includes(code)) {
          setState({ kind: 'failed', message: failure instanceof Error && failure.message ? failure.message : AUTO_SIGN_IN_TIMEOUT_MESSAGE });
        } else if (Date.now() + AUTO_SIGN_IN_INTERVAL_MS > deadline) {
          setState({ kind: 'failed', message: AUTO_SIGN_IN_TIMEOUT_MESSAGE });
        } else {
          timer = window.setTimeout(() => void attempt(), AUTO_SIGN_IN_INTERVAL_MS);
        }
      }
    };
    timer = window.setTimeout(() => void attempt(), AUTO_SIGN_IN_INTERVAL_MS);
    return () => {
      active = false;
      window.clearTimeout(timer);
    };
  }, [credentials]);

  return state;
}

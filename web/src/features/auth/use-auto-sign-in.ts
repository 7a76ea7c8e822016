import { useCallback, useEffect, useRef, useState } from 'react';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { AuthError, type SignInResult } from '#web/lib/auth/types.ts';

/** Auto sign-in after sign-up (user-portal spec, section 9): a try every 5 s for 3 minutes. */
export const AUTO_SIGN_IN_INTERVAL_MS = 5_000;
export const AUTO_SIGN_IN_WAIT_MS = 3 * 60_000;
export const AUTO_SIGN_IN_TIMEOUT_MESSAGE = 'The account was not confirmed on time.';

interface Credentials {
  readonly email: string;
  readonly password: string;
}

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
 * ConfirmSignUp returns) does not apply here: this pool confirms by link, which Cognito's domain
 * serves in another tab, so no confirmation session ever reaches this page (the client allows
 * USER_AUTH for passkeys, contracts/user-pool-client.ts, but that needs the session).
 * The page therefore tries an SRP sign-in until the account is confirmed. The password lives
 * only in this hook's memory while the page waits and is dropped at the end; it is never stored.
 */
export function useAutoSignIn(): readonly [AutoSignIn, (credentials: Credentials) => void] {
  const auth = useAuth();
  const [state, setState] = useState<AutoSignIn>({ kind: 'waiting' });
  const [started, setStarted] = useState(false);
  const credentials = useRef<Credentials | null>(null);
  const signIn = useRef(auth.signIn);
  useEffect(() => {
    signIn.current = auth.signIn;
  });

  useEffect(() => {
    if (!started) return;
    let active = true;
    let timer: number | undefined;
    const deadline = Date.now() + AUTO_SIGN_IN_WAIT_MS;
    const finish = (next: AutoSignIn) => {
      credentials.current = null;
      setState(next);
    };
    const attempt = async () => {
      const pending = credentials.current;
      if (!pending) return;
      try {
        const result = await signIn.current(pending.email, pending.password);
        if (active) finish({ kind: 'signedIn', result });
      } catch (failure) {
        if (!active) return;
        const code = failure instanceof AuthError ? failure.code : '';
        if (!KEEP_WAITING.includes(code)) {
          finish({
            kind: 'failed',
            message: failure instanceof Error && failure.message ? failure.message : AUTO_SIGN_IN_TIMEOUT_MESSAGE,
          });
        } else if (Date.now() + AUTO_SIGN_IN_INTERVAL_MS > deadline) {
          finish({ kind: 'failed', message: AUTO_SIGN_IN_TIMEOUT_MESSAGE });
        } else {
          timer = window.setTimeout(() => void attempt(), AUTO_SIGN_IN_INTERVAL_MS);
        }
      }
    };
    timer = window.setTimeout(() => void attempt(), AUTO_SIGN_IN_INTERVAL_MS);
    return () => {
      active = false;
      credentials.current = null;
      window.clearTimeout(timer);
    };
  }, [started]);

  const start = useCallback((given: Credentials) => {
    credentials.current = given;
    setStarted(true);
  }, []);

  return [state, start] as const;
}

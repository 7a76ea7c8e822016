import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context.ts';
import type { CognitoAuthService, CognitoServiceOptions } from './cognito-service.ts';
import { ReauthenticationContext, type Reauthenticate } from './reauthentication.ts';
import { recordSessionEnd } from './session-end.ts';
import { hasStoredSession, isSessionStorageEvent } from './stored-session.ts';
import { AuthError, DEVICE_REFUSED_CODE, type AuthSession, type SignInResult } from './types.ts';

/** Tokens are refreshed when they expire within this time (spec: 5000 ms). */
const TOKEN_REFRESH_TOLERANCE_MS = 5_000;
/** The background refresh runs this long before expiry, so calls never wait for it. */
const BACKGROUND_REFRESH_LEAD_MS = 60_000;

/** Remembered devices: only the MFA page and the remember-this-device step need them. */
const deviceService = () => import('./device-service.ts');

type AuthServiceLoader = (options: CognitoServiceOptions) => Promise<CognitoAuthService>;

const loadCognitoService: AuthServiceLoader = async (options) => {
  const { CognitoAuthService } = await import('./cognito-service.ts');
  return new CognitoAuthService(options);
};

interface AuthProviderProps extends CognitoServiceOptions {
  readonly children: ReactNode;
  /**
   * The MFA function's URL (config.functions.mfa): Log out, the device list and forgetting a
   * device go through it, because a token from a refresh cannot call Cognito for them.
   */
  readonly accountUrl?: string;
  /** Replaced in tests. */
  readonly loadService?: AuthServiceLoader;
}

/**
 * A refresh refused because this browser's device was forgotten elsewhere ends the session like
 * any refusal; the sign-in page it lands on says why (session-end.ts).
 */
function noteDeviceRefusal(error: unknown): void {
  if (error instanceof AuthError && error.code === DEVICE_REFUSED_CODE)
    recordSessionEnd({ reason: 'deviceRefused', minutes: 0 });
}

interface AuthState {
  readonly status: AuthStatus;
  readonly session: AuthSession | null;
}

export function AuthProvider({
  children,
  loadService = loadCognitoService,
  accountUrl,
  ...options
}: AuthProviderProps) {
  const { userPoolId, clientId, endpoint, storage } = options;
  // Without stored tokens there is nothing to check: signed out at once, library not loaded.
  const [state, setState] = useState<AuthState>(() => ({
    status: hasStoredSession(clientId, storage ?? window.localStorage) ? 'loading' : 'signedOut',
    session: null,
  }));
  const sessionRef = useRef<AuthSession | null>(null);
  /** The end of the last sign-out, which a new sign-in waits for (it never rejects). */
  const pendingSignOut = useRef<Promise<void>>(Promise.resolve());
  const serviceRef = useRef<Promise<CognitoAuthService> | null>(null);

  const service = useCallback((): Promise<CognitoAuthService> => {
    serviceRef.current ??= loadService({ userPoolId, clientId, endpoint, storage });
    return serviceRef.current;
  }, [loadService, userPoolId, clientId, endpoint, storage]);

  const apply = useCallback((session: AuthSession | null) => {
    sessionRef.current = session;
    setState({ status: session ? 'signedIn' : 'signedOut', session });
    return session;
  }, []);

  const readStoredSession = useCallback(async (): Promise<AuthSession | null> => {
    if (!hasStoredSession(clientId, storage ?? window.localStorage)) return null;
    try {
      return await (await service()).currentSession();
    } catch (error) {
      console.error('Error loading the session:', error instanceof Error ? error.message : error);
      noteDeviceRefusal(error);
      return null;
    }
  }, [clientId, service, storage]);

  const reloadSession = useCallback(async () => apply(await readStoredSession()), [apply, readStoredSession]);

  // Start-up: check the stored session (refreshing it if its tokens have expired).
  useEffect(() => {
    if (!hasStoredSession(clientId, storage ?? window.localStorage)) return;
    let active = true;
    void readStoredSession().then((session) => {
      if (active) apply(session);
    });
    return () => {
      active = false;
    };
  }, [apply, clientId, readStoredSession, storage]);

  // Signing out (or in) in another tab changes the stored user: follow it here.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (isSessionStorageEvent(event, clientId)) void reloadSession();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [clientId, reloadSession]);

  const refresh = useCallback(async () => {
    try {
      const session = await (await service()).refresh();
      apply(session);
      return session;
    } catch (error) {
      const authError = error instanceof AuthError ? error : null;
      console.error('Error refreshing the session:', authError?.code ?? 'UnknownError');
      // A network failure keeps the session; anything else means it is gone.
      if (authError?.code !== 'NetworkError') {
        noteDeviceRefusal(error);
        apply(null);
      }
      throw error;
    }
  }, [apply, service]);

  // Refresh shortly before the tokens expire while the app is open.
  const expiresAt = state.session?.expiresAt;
  useEffect(() => {
    if (expiresAt === undefined) return;
    const delay = Math.max(expiresAt - Date.now() - BACKGROUND_REFRESH_LEAD_MS, TOKEN_REFRESH_TOLERANCE_MS);
    const timer = window.setTimeout(() => {
      refresh().catch(() => undefined);
    }, delay);
    return () => window.clearTimeout(timer);
  }, [expiresAt, refresh]);

  // Stable, so clients built on it (API, GraphQL) survive session changes.
  const getAccessToken = useCallback(async () => {
    const current = sessionRef.current;
    if (!current) throw new AuthError('Authentication required', 'NoValidAuthTokens');
    if (current.expiresAt - Date.now() > TOKEN_REFRESH_TOLERANCE_MS) return current.accessToken;
    return (await refresh()).accessToken;
  }, [refresh]);

  /** The caller's own account actions of the MFA function (devices, sign-out everywhere). */
  const account = useCallback(async () => {
    if (!accountUrl) throw new AuthError('The account function is not configured', 'NotConfigured');
    return (await import('./account-actions.ts')).accountActions(accountUrl, getAccessToken);
  }, [accountUrl, getAccessToken]);

  const afterStep = useCallback(
    (result: SignInResult) => {
      if (result.step === 'DONE') apply(result.session);
      return result;
    },
    [apply],
  );

  const reauthenticate = useCallback<Reauthenticate>(
    async (password, code) => {
      const email = sessionRef.current?.email;
      if (!email) throw new AuthError('Authentication required', 'NoValidAuthTokens');
      apply(await (await service()).reauthenticate(email, password, code));
    },
    [apply, service],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      status: state.status,
      loading: state.status === 'loading',
      session: state.session,
      signIn: async (email, password) => {
        // A sign-in right after Log out waits for the old sessions to end: the end must not
        // reach the new session (Cognito's global sign-out revokes every token of the account).
        await pendingSignOut.current;
        return afterStep(await (await service()).signIn(email, password));
      },
      signInWithPasskey: async (email) => {
        await pendingSignOut.current;
        const [loaded, { passkeySignIn }] = await Promise.all([service(), import('./passkey-sign-in.ts')]);
        return afterStep(await passkeySignIn(loaded, clientId, email, accountUrl));
      },
      confirmTotpCode: async (code) => afterStep(await (await service()).confirmTotpCode(code)),
      completeNewPassword: async (password) => afterStep(await (await service()).completeNewPassword(password)),
      signInMfaSetup: async () => (await service()).signInMfaSetup(),
      cancelSignIn: async () => (await service()).cancelSignIn(),
      reloadSession,
      getAccessToken,
      signOut: async () => {
        // Signed out on screen at once: the protected pages, and with them the dashboard
        // frame, are gone before the identity provider answers (or fails to).
        apply(null);
        const ending = (async () => {
          try {
            // Without the function (not loaded, offline), this browser's session still ends.
            const actions = accountUrl ? await account().catch(() => undefined) : undefined;
            await (await service()).signOut(actions?.signOutEverywhere);
          } catch (error) {
            console.error('Error signing out:', error instanceof Error ? error.message : error);
          }
        })();
        pendingSignOut.current = ending;
        await ending;
      },
      signUp: async (email, password) => (await service()).signUp(email, password),
      forgotPassword: async (email) => (await service()).forgotPassword(email),
      confirmForgotPassword: async (email, code, password) =>
        (await service()).confirmForgotPassword(email, code, password),
      rememberDevice: async () =>
        (await deviceService()).rememberDevice(await (await service()).signedInUserWithDevice()),
      listDevices: async () => {
        const [{ devices }, user, devicesModule] = await Promise.all([
          account().then((actions) => actions.listDevices()),
          (await service()).signedInUserWithDevice(),
          deviceService(),
        ]);
        const current = devicesModule.currentDeviceKey(user);
        return devices.map((device) => ({ ...device, current: device.key === current }));
      },
      forgetDevice: async (deviceKey) => {
        // Which device this browser is, read while its session is surely alive.
        const cognito = await service();
        const [user, devicesModule] = await Promise.all([cognito.signedInUserWithDevice(), deviceService()]);
        await (await account()).forgetDevice(deviceKey);
        if (devicesModule.currentDeviceKey(user) !== deviceKey) return;
        // This browser's device: its secret goes, and so does its session, whose refresh token
        // was bound to the device and can no longer be refreshed. Only this browser is signed
        // out (its refresh token revoked); the note tells the sign-in page why.
        devicesModule.dropDeviceSecret(user);
        recordSessionEnd({ reason: 'deviceForgotten', minutes: 0 });
        apply(null);
        const ending = cognito.signOut().catch((error: unknown) => {
          console.error('Error signing out:', error instanceof Error ? error.message : error);
        });
        pendingSignOut.current = ending;
        await ending;
      },
      preload: () => {
        void service();
      },
    }),
    [account, accountUrl, afterStep, apply, clientId, getAccessToken, reloadSession, service, state],
  );

  return (
    <AuthContext.Provider value={value}>
      <ReauthenticationContext.Provider value={reauthenticate}>{children}</ReauthenticationContext.Provider>
    </AuthContext.Provider>
  );
}

import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { AuthError, type AuthSession, type MfaSetupDriver, type SignInResult } from '#web/lib/auth/types.ts';
import {
  accessDeniedMessage,
  hasAnyGroup,
  privilegeCheckAfterSetupMessage,
  SIGN_IN_MESSAGES,
  signInProblem,
  type Privilege,
} from '#web/lib/sign-in/sign-in-messages.ts';
import { CredentialsForm, type CredentialsLabels, type SignInForm } from './credentials-form.tsx';
import { MfaCodeForm } from './mfa-code-form.tsx';
import { NewPasswordForm } from './new-password-form.tsx';

// The wizard draws the QR code; most sign-ins never need it.
const MfaSetupWizard = lazy(() => import('./mfa-setup-wizard.tsx'));

export interface SignInFlowProps {
  /** Groups allowed in: ['Users', 'Admins'] for the user portal, ['Admins'] for the admin portal. */
  readonly requiredGroups: readonly string[];
  /** Wording of the access messages: 'user privileges' or 'admin privileges'. */
  readonly privilege: Privilege;
  readonly labels: CredentialsLabels;
  /** The product name: issuer shown in the authenticator app. */
  readonly productName: string;
  /** Shown above the credentials form (title, subtitle). */
  readonly heading?: ReactNode;
  /** Shown between the fields and the button (e.g. a forgot-password link). */
  readonly extra?: ReactNode;
  /** Shown under the form (e.g. sign-up and marketing links). */
  readonly footer?: ReactNode;
  /** Where the wizard says it is going after setup. */
  readonly redirectText?: string;
  /** The account is signed in and in one of the groups: redirect. */
  readonly onSignedIn: (session: AuthSession) => void;
  /** Shown instead of the library's text when the sign-in needs a step this portal does not offer. */
  readonly unsupportedStepMessage?: string;
  /**
   * Called when a sign-in starts on this page: from then on the flow decides when to leave
   * (once the device is remembered or after the setup's last step), not the page.
   */
  readonly onStart?: () => void;
  /**
   * A sign-in already under way (the automatic one after sign-up): the flow continues from
   * its result instead of asking for the credentials.
   */
  readonly resume?: { readonly email: string; readonly result: SignInResult };
}

/** After setup the wizard shows its last step this long before the sign-in goes on. */
const SETUP_COMPLETE_PAUSE_MS = 2_000;

export const REMEMBER_DEVICE_FAILED =
  'Signed in, but this device could not be remembered: the next sign-in here asks for a code again.';

/** Failures of the identity service for a challenge the portal does not support (SMS, custom). */
const UNSUPPORTED_STEP_CODES: readonly string[] = ['InvalidMfaMethod', 'UnsupportedChallenge'];

/** Failures after which the code step cannot be retried. */
const SESSION_ENDED_CODES: readonly string[] = ['NotAuthorizedException', 'NoSessionFoundException'];

const sessionEnded = (failure: unknown) => failure instanceof AuthError && SESSION_ENDED_CODES.includes(failure.code);

type Stage = 'resuming' | 'credentials' | 'totp' | 'setup' | 'newPassword';

/**
 * A whole sign-in: credentials (SRP) or a passkey, then the TOTP code, the first-time authenticator setup
 * or a new password, then the group check. Shared by the user and admin login pages.
 */
export function SignInFlow({
  requiredGroups,
  privilege,
  labels,
  productName,
  heading,
  extra,
  footer,
  redirectText,
  onSignedIn,
  unsupportedStepMessage,
  onStart,
  resume,
}: SignInFlowProps) {
  const auth = useAuth();
  const { rememberDevices, passkeys } = useConfig();
  const [stage, setStage] = useState<Stage>(resume ? 'resuming' : 'credentials');
  const [error, setError] = useState<string | null>(null);
  const [alreadySignedIn, setAlreadySignedIn] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const credentials = useRef<SignInForm | null>(null);
  const [accountEmail, setAccountEmail] = useState(resume?.email ?? '');

  /** True when the account may use this portal; otherwise it is signed out again. */
  const checkGroups = useCallback(
    async (session: AuthSession) => {
      if (hasAnyGroup(session.groups, requiredGroups)) return true;
      await auth.signOut();
      setStage('credentials');
      setError(accessDeniedMessage(privilege));
      return false;
    },
    [auth, privilege, requiredGroups],
  );

  /**
   * Remembers this browser right after the sign-in, while its tokens are fresh (the device
   * calls need them). A failure does not undo the sign-in: the person is told and goes on.
   */
  const rememberThisDevice = useCallback(async () => {
    try {
      await auth.rememberDevice();
    } catch (failure) {
      console.error('Error remembering the device:', failure instanceof AuthError ? failure.code : failure);
      notify.error(REMEMBER_DEVICE_FAILED);
    }
  }, [auth]);

  const follow = useCallback(
    async (result: SignInResult, remember = false) => {
      setError(null);
      switch (result.step) {
        case 'DONE':
          if (!(await checkGroups(result.session))) return;
          if (remember && rememberDevices) await rememberThisDevice();
          onSignedIn(result.session);
          return;
        case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
          setStage('totp');
          return;
        case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
          setStage('newPassword');
          return;
        default:
          // TOTP setup, and any step this portal does not know, go to the setup wizard.
          setStage('setup');
      }
    },
    [checkGroups, onSignedIn, rememberDevices, rememberThisDevice],
  );

  const resumed = useRef(false);
  useEffect(() => {
    if (!resume || resumed.current) return;
    resumed.current = true;
    onStart?.();
    follow(resume.result).catch((failure: unknown) => {
      setStage('credentials');
      setError(signInProblem(failure).message);
    });
  }, [follow, onStart, resume]);

  /** The password sign-in, or without a password a passkey after the email (one gesture, or on to the code). */
  const submitCredentials = async ({ email, password }: { email: string; password?: string }) => {
    onStart?.();
    credentials.current = password === undefined ? null : { email, password };
    setAccountEmail(email);
    setAlreadySignedIn(false);
    try {
      await follow(await (password === undefined ? auth.signInWithPasskey(email) : auth.signIn(email, password)));
    } catch (failure) {
      const problem = signInProblem(failure);
      const unsupported = failure instanceof AuthError && UNSUPPORTED_STEP_CODES.includes(failure.code);
      setError(unsupported && unsupportedStepMessage ? unsupportedStepMessage : problem.message);
      setAlreadySignedIn(problem.alreadySignedIn);
    }
  };

  const submitTotp = async (code: string, remember: boolean) => {
    try {
      await follow(await auth.confirmTotpCode(code), remember);
    } catch (failure) {
      setError(SIGN_IN_MESSAGES.mfaFailed);
      // The challenge session has ended (it lasts 3 minutes): start again from the password.
      if (sessionEnded(failure)) setStage('credentials');
    }
  };

  // The setup session also lasts 3 minutes (installing an app can take longer): once it has
  // ended no code can succeed, so the sign-in starts again from the password.
  const setupDriver = useCallback(async (): Promise<MfaSetupDriver> => {
    const driver = await auth.signInMfaSetup();
    return {
      associate: () => driver.associate(),
      verify: async (code) => {
        try {
          await driver.verify(code);
        } catch (failure) {
          if (sessionEnded(failure)) {
            setStage('credentials');
            setError(SIGN_IN_MESSAGES.setupFailed);
          }
          throw failure;
        }
      },
    };
  }, [auth]);

  const submitNewPassword = async (password: string) => {
    try {
      await follow(await auth.completeNewPassword(password));
    } catch (failure) {
      setError(signInProblem(failure).message);
    }
  };

  const cancel = () => {
    void auth.cancelSignIn();
    setStage('credentials');
    setError(null);
  };

  // Step 3 of the wizard stays on screen for a moment before the session is picked up (which
  // takes the page away).
  const afterSetup = async () => {
    await new Promise((resolve) => window.setTimeout(resolve, SETUP_COMPLETE_PAUSE_MS));
    const session = await auth.reloadSession().catch(() => null);
    if (!session) {
      setStage('credentials');
      setError(privilegeCheckAfterSetupMessage(privilege));
      return;
    }
    if (await checkGroups(session)) onSignedIn(session);
  };

  const signOutAndRetry = async () => {
    setRetrying(true);
    await auth.signOut();
    setRetrying(false);
    setAlreadySignedIn(false);
    setError(null);
    if (credentials.current) await submitCredentials(credentials.current);
  };

  if (stage === 'resuming') return <Spinner label="Signing in..." />;
  if (stage === 'totp') {
    return (
      <MfaCodeForm onSubmit={submitTotp} onCancel={cancel} error={error} offerRemember={rememberDevices === true} />
    );
  }
  if (stage === 'newPassword') return <NewPasswordForm onSubmit={submitNewPassword} onCancel={cancel} error={error} />;
  if (stage === 'setup') {
    return (
      <Suspense fallback={<Spinner label="Setting up your MFA secret..." />}>
        <MfaSetupWizard
          driver={setupDriver}
          accountName={accountEmail}
          issuer={productName}
          messages={{ associateFailed: SIGN_IN_MESSAGES.setupTotpFailed, verifyFailed: SIGN_IN_MESSAGES.setupFailed }}
          onComplete={() => void afterSetup()}
          onCancel={cancel}
          {...(redirectText ? { redirectText } : {})}
        />
      </Suspense>
    );
  }

  return (
    <div className="stack">
      {heading}
      {error && (
        <Alert tone="error">
          <p>{error}</p>
          {alreadySignedIn && (
            <div className="row">
              <Button size="sm" variant="secondary" onClick={() => void signOutAndRetry()} disabled={retrying}>
                Sign Out &amp; Try Again
              </Button>
              <Button size="sm" variant="secondary" onClick={() => window.location.reload()}>
                Refresh Page
              </Button>
            </div>
          )}
        </Alert>
      )}
      <CredentialsForm
        labels={labels}
        onSubmit={submitCredentials}
        onIntent={auth.preload}
        extra={extra}
        {...(passkeys ? { onPasskey: (email: string) => submitCredentials({ email }) } : {})}
      />
      {footer}
    </div>
  );
}

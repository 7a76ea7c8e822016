import { useCallback } from 'react';
import type { Passkey } from '#contracts/passkeys.ts';
import { Alert } from '#web/components/alert.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { localDate } from '#web/lib/dates.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { ADMIN_FAILURES, userManagementErrorText } from '../errors.ts';
import { useResource } from '#web/lib/use-resource.ts';

const USER_FACTORS_TEXTS = {
  label: 'Sign-in methods',
  loading: 'Loading sign-in methods...',
  resetStillPossible: 'You can still reset MFA.',
} as const;

const passkeyText = (passkey: Passkey) =>
  `${passkey.name} — added ${localDate(passkey.createdAt)}, ${
    passkey.lastUsedAt === undefined ? 'not used yet' : `last used ${localDate(passkey.lastUsedAt)}`
  }`;

/**
 * What an account signs in with besides its password (its authenticator app and passkeys), as
 * the Reset MFA confirmation shows it. Loaded when shown; a failure says so without stopping the reset.
 */
export function UserFactors({ email }: { readonly email: string }) {
  const api = useAdminApi();
  const load = useCallback(() => api.users.userFactors(email), [api, email]);
  const { data, error, loading } = useResource(load);

  if (loading && data === undefined) return <Spinner size="sm" label={USER_FACTORS_TEXTS.loading} />;
  if (data === undefined)
    return (
      <Alert tone="error" title={ADMIN_FAILURES.loadUserFactors}>
        <p>{userManagementErrorText(error)}</p>
        <p>{USER_FACTORS_TEXTS.resetStillPossible}</p>
      </Alert>
    );
  return (
    <ul className="stack-tight" aria-label={USER_FACTORS_TEXTS.label}>
      <li>Authenticator app: {data.authenticator ? 'set up' : 'not set up'}</li>
      {data.passkeys.length === 0 ? (
        <li>Passkeys: none</li>
      ) : (
        <li>
          Passkeys:
          <ul>
            {data.passkeys.map((passkey) => (
              <li key={passkey.credentialId}>{passkeyText(passkey)}</li>
            ))}
          </ul>
        </li>
      )}
    </ul>
  );
}

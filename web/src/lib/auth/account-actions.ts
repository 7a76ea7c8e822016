import { deviceListResponseSchema, messageResponseSchema } from '#contracts/mfa.ts';
import { createApiClient } from '../api.ts';

/**
 * The caller's own account actions of the MFA function: the device list, forgetting a device,
 * signing out everywhere and noting a passkey's use. A token from a refresh cannot call Cognito for them (it lacks the
 * admin scope), so the function does, for the caller's own username. Loaded when first used.
 */
export function accountActions(url: string, getAccessToken: () => Promise<string>) {
  const client = createApiClient({ getAccessToken });
  return {
    listDevices: () => client.request(url, { body: { action: 'LIST_DEVICES' }, schema: deviceListResponseSchema }),
    forgetDevice: (deviceKey: string) =>
      client.request(url, { body: { action: 'FORGET_DEVICE', deviceKey }, schema: messageResponseSchema }),
    /** Right after a sign-in with a passkey: its last use, shown on the MFA page. */
    passkeyUsed: (credentialId: string) =>
      client.request(url, { body: { action: 'PASSKEY_USED', credentialId }, schema: messageResponseSchema }),
    /** With the token of the session being ended: the provider has already let the session go. */
    signOutEverywhere: async (accessToken: string) => {
      await createApiClient({ getAccessToken: async () => accessToken }).request(url, {
        body: { action: 'SIGN_OUT_EVERYWHERE' },
        schema: messageResponseSchema,
      });
    },
  };
}

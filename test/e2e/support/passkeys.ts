import type { CDPSession, Page } from 'playwright-core';

/**
 * Chromium's virtual authenticator (DevTools WebAuthn domain) on `page`: a platform authenticator
 * with user verification (a laptop's fingerprint reader) that answers by itself, as if touched.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * Adds a passkey as the MFA page does (the MFA function's START and COMPLETE, the ceremony in the
 * page, which must be on the portal's origin), with the access token of a sign-in of the last 5
 * minutes: the step-up the page asks for is the MFA page's own journey (test/e2e/passkeys.test.ts).
 */
export async function addPasskeyWithToken(page: Page, mfaUrl: string, token: string): Promise<void> {
  // No named function inside: tsx's esbuild would wrap it in a helper the page does not have.
  const outcome = await page.evaluate(
    async ({ url, token }) => {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const started = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ action: 'START_PASSKEY_REGISTRATION' }),
      });
      if (!started.ok) return `START_PASSKEY_REGISTRATION answered ${started.status}`;
      const { options } = (await started.json()) as { options: unknown };
      // The page's own WebAuthn API (Chromium has the JSON forms built in).
      const browserApi = globalThis as unknown as {
        PublicKeyCredential: { parseCreationOptionsFromJSON(json: unknown): unknown };
        navigator: { credentials: { create(options: { publicKey: unknown }): Promise<{ toJSON(): unknown }> } };
      };
      const publicKey = browserApi.PublicKeyCredential.parseCreationOptionsFromJSON(options);
      const created = await browserApi.navigator.credentials.create({ publicKey });
      const completed = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ action: 'COMPLETE_PASSKEY_REGISTRATION', credential: created.toJSON() }),
      });
      return completed.ok ? '' : `COMPLETE_PASSKEY_REGISTRATION answered ${completed.status}`;
    },
    { url: mfaUrl, token },
  );
  if (outcome !== '') throw new Error(`Adding a passkey failed: ${outcome}`);
}

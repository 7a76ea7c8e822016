import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  MFA_REQUIRED_MESSAGE,
  REAUTHENTICATION_MESSAGE,
  REAUTHENTICATION_REQUIRED,
  type MfaStatus,
} from '#contracts/mfa.ts';
import { ReauthenticationContext, type Reauthenticate } from '#web/lib/auth/reauthentication.ts';
import { MFA_MESSAGES } from '#web/features/settings/api/mfa.ts';
import MfaSettingsPage from '#web/features/settings/routes/mfa-settings-page.tsx';
import { testConfig } from './support/config.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './support/render.tsx';
import { skip, useSkippableTimeouts } from './support/timers.ts';

type Answer = (body: { action: string; mfaCode?: string }) => Response;

function stubMfaFunction(answer: Answer) {
  const actions: { action: string; mfaCode?: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      expect(String(input)).toBe(testConfig.functions.mfa);
      expect(new Headers(init?.headers).get('authorization')).toBe('Bearer access-token');
      const body = JSON.parse(String(init?.body)) as { action: string; mfaCode?: string };
      actions.push(body);
      return answer(body);
    }),
  );
  return actions;
}

/** A pool that requires MFA (as deployed): the authenticator can be replaced, not disabled. */
const enabled: MfaStatus = { mfaEnabled: true, mfaDevices: [{ DeliveryMedium: 'SOFTWARE_TOKEN' }], mfaRequired: true };
const disabled: MfaStatus = { mfaEnabled: false, mfaDevices: [], mfaRequired: true };
/** A pool where MFA is optional. */
const optionalEnabled: MfaStatus = { ...enabled, mfaRequired: false };
const optionalDisabled: MfaStatus = { ...disabled, mfaRequired: false };
const SECRET = 'JBSWY3DPEHPK3PXP';
const renderMfa = () =>
  renderPage(<MfaSettingsPage />, { auth: fakeAuth({ session: userSession() }), path: '/mfa-settings' });

describe('MFA management page', () => {
  it('shows the status, the devices and the security information', async () => {
    stubMfaFunction(() => jsonResponse(enabled));
    renderMfa();
    expect(await screen.findByText('Enabled')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Multi-Factor Authentication' })).toBeInTheDocument();
    expect(screen.getByText('Authenticator App (time-based one-time password)')).toBeInTheDocument();
    expect(screen.getByText('Software Token')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Security Information' })).toBeInTheDocument();
  });

  it('offers Set up a new authenticator instead of Disable MFA where the pool requires MFA', async () => {
    stubMfaFunction(() => jsonResponse(enabled));
    renderMfa();
    expect(await screen.findByRole('button', { name: 'Set up a new authenticator' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disable MFA' })).not.toBeInTheDocument();
    expect(screen.getByText(/so MFA cannot be disabled/)).toBeInTheDocument();
  });

  it('replaces the authenticator in its own flow: new key, then a code from the new app, then back here with a confirmation', async () => {
    const actions = stubMfaFunction(({ action }) => {
      if (action === 'ASSOCIATE_SOFTWARE_TOKEN') return jsonResponse({ secretCode: SECRET });
      if (action === 'VERIFY_SOFTWARE_TOKEN')
        return jsonResponse({ status: 'SUCCESS', message: 'MFA setup completed successfully!' });
      return jsonResponse(enabled);
    });
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up a new authenticator' }));

    const flow = await screen.findByRole('region', { name: 'Set up a new authenticator' });
    const scanStep = within(flow).getByRole('heading', { name: 'Step 1 of 2: Add the new key to your app' });
    expect(scanStep).toHaveFocus();
    expect(await within(flow).findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(within(flow).getByText(MFA_MESSAGES.replaceIntro)).toBeInTheDocument();
    expect(within(flow).getByRole('img', { name: /QR code to add TVIQ/ })).toBeInTheDocument();
    // Not the first-sign-in wizard.
    expect(screen.queryByText(/Step \d of 3/)).not.toBeInTheDocument();
    expect(screen.queryByText('Set Up Multi-Factor Authentication')).not.toBeInTheDocument();

    await user.click(within(flow).getByRole('button', { name: 'Next' }));
    expect(within(flow).getByRole('heading', { name: 'Step 2 of 2: Enter a code from the new app' })).toHaveFocus();
    await user.type(within(flow).getByLabelText('Code from your new authenticator app'), '654321');
    await user.click(within(flow).getByRole('button', { name: 'Verify New Authenticator' }));

    const confirmation = await screen.findByText(MFA_MESSAGES.replaced);
    expect(confirmation.closest('[tabindex="-1"]')).toHaveFocus();
    expect(screen.queryByRole('region', { name: 'Set up a new authenticator' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Redirecting to dashboard/)).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Set up a new authenticator' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/mfa-settings');
    expect(actions).toEqual([
      { action: 'GET_MFA_STATUS' },
      { action: 'ASSOCIATE_SOFTWARE_TOKEN' },
      { action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '654321' },
      { action: 'GET_MFA_STATUS' },
    ]);
  });

  it('keeps the new-authenticator flow on its code step when the code is refused, and goes back to the key', async () => {
    stubMfaFunction(({ action }) => {
      if (action === 'ASSOCIATE_SOFTWARE_TOKEN') return jsonResponse({ secretCode: SECRET });
      if (action === 'VERIFY_SOFTWARE_TOKEN') return jsonResponse({ error: 'Invalid code' }, { status: 400 });
      return jsonResponse(enabled);
    });
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up a new authenticator' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.type(screen.getByLabelText('Code from your new authenticator app'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify New Authenticator' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid code');
    expect(screen.queryByText(MFA_MESSAGES.replaced)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('heading', { name: 'Step 1 of 2: Add the new key to your app' })).toHaveFocus();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
  });

  it('goes back to the status when the replacement is cancelled, without disabling anything', async () => {
    const actions = stubMfaFunction(({ action }) =>
      action === 'ASSOCIATE_SOFTWARE_TOKEN' ? jsonResponse({ secretCode: SECRET }) : jsonResponse(enabled),
    );
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up a new authenticator' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Set up a new authenticator' })).toBeInTheDocument();
    expect(actions.map((a) => a.action)).toEqual(['GET_MFA_STATUS', 'ASSOCIATE_SOFTWARE_TOKEN']);
  });

  it('where MFA is optional, asks before disabling and confirms', async () => {
    let state = optionalEnabled;
    const actions = stubMfaFunction(({ action }) => {
      if (action === 'DISABLE_MFA') {
        state = optionalDisabled;
        return jsonResponse({ message: 'MFA has been disabled successfully' });
      }
      return jsonResponse(state);
    });
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disable MFA' }));
    expect(screen.queryByRole('button', { name: 'Set up a new authenticator' })).not.toBeInTheDocument();
    const dialog = screen.getByRole('alertdialog', { name: 'Disable MFA' });
    expect(
      within(dialog).getByText('Are you sure you want to disable MFA? This will make your account less secure.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Disable MFA' }));
    expect(await screen.findByText('MFA has been disabled successfully')).toBeInTheDocument();
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enable MFA' })).toBeInTheDocument();
    expect(actions.map((a) => a.action)).toEqual(['GET_MFA_STATUS', 'DISABLE_MFA', 'GET_MFA_STATUS']);
  });

  it('keeps MFA when the confirmation is cancelled with Escape', async () => {
    const actions = stubMfaFunction(() => jsonResponse(optionalEnabled));
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disable MFA' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(actions.map((a) => a.action)).toEqual(['GET_MFA_STATUS']);
  });

  it('reports a failed disable', async () => {
    stubMfaFunction(({ action }) =>
      action === 'DISABLE_MFA' ? new Response('{"error":"boom"}', { status: 502 }) : jsonResponse(optionalEnabled),
    );
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disable MFA' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable MFA' }));
    expect(await screen.findByText('Failed to disable MFA')).toBeInTheDocument();
  });

  it("shows the function's refusal when the pool turns out to require MFA", async () => {
    stubMfaFunction(({ action }) =>
      action === 'DISABLE_MFA'
        ? new Response(JSON.stringify({ error: MFA_REQUIRED_MESSAGE }), { status: 409 })
        : jsonResponse(optionalEnabled),
    );
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disable MFA' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable MFA' }));
    expect(await screen.findByText(MFA_REQUIRED_MESSAGE)).toBeInTheDocument();
  });

  it('reports a status that cannot be loaded, and retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    stubMfaFunction(() => (fail ? new Response('oops', { status: 500 }) : jsonResponse(disabled)));
    renderMfa();
    expect(await screen.findByText('Failed to load MFA status')).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
  });

  it('says authentication is required when there is no session', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubMfaFunction(() => jsonResponse(enabled));
    renderPage(<MfaSettingsPage />, {
      auth: fakeAuth({ session: userSession(), getAccessToken: vi.fn(async () => Promise.reject(new Error('none'))) }),
      path: '/mfa-settings',
    });
    expect(await screen.findByText('Authentication required')).toBeInTheDocument();
  });

  it('enables MFA with the wizard through the MFA function, then goes to the dashboard after 2 s', async () => {
    useSkippableTimeouts();
    let state = disabled;
    const actions = stubMfaFunction(({ action }) => {
      if (action === 'ASSOCIATE_SOFTWARE_TOKEN') return jsonResponse({ secretCode: SECRET });
      if (action === 'VERIFY_SOFTWARE_TOKEN') {
        state = enabled;
        return jsonResponse({ status: 'SUCCESS', message: 'MFA setup completed successfully!' });
      }
      return jsonResponse(state);
    });
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Enable MFA' }));
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Enter the 6-digit code from your app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Complete Setup' }));
    expect(await screen.findByText('MFA Setup Complete!')).toBeInTheDocument();
    expect(screen.getByText('Your account is now protected with multi-factor authentication.')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to dashboard...')).toBeInTheDocument();
    expect(screen.getByText('MFA setup completed successfully!')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/mfa-settings');
    await skip(2_000);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(actions).toContainEqual({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '123456' });
  });

  it('shows the wizard texts when the code is refused', async () => {
    stubMfaFunction(({ action }) => {
      if (action === 'ASSOCIATE_SOFTWARE_TOKEN') return jsonResponse({ secretCode: SECRET });
      if (action === 'VERIFY_SOFTWARE_TOKEN') return new Response('{}', { status: 500 });
      return jsonResponse(disabled);
    });
    renderMfa();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Enable MFA' }));
    await user.type(await screen.findByLabelText('Enter the 6-digit code from your app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Complete Setup' }));
    expect(await screen.findByText('Failed to verify code')).toBeInTheDocument();
  });

  it('shows the wizard text when no secret can be generated', async () => {
    stubMfaFunction(({ action }) =>
      action === 'ASSOCIATE_SOFTWARE_TOKEN' ? new Response('{}', { status: 500 }) : jsonResponse(disabled),
    );
    renderMfa();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Enable MFA' }));
    expect(await screen.findByText('Failed to generate MFA secret')).toBeInTheDocument();
  });

  describe('when the function asks for a recent sign-in', () => {
    const stale = () =>
      jsonResponse({ error: REAUTHENTICATION_MESSAGE, reason: REAUTHENTICATION_REQUIRED }, { status: 401 });
    const renderWithReauthentication = (reauthenticate: Reauthenticate) =>
      renderPage(
        <ReauthenticationContext.Provider value={reauthenticate}>
          <MfaSettingsPage />
        </ReauthenticationContext.Provider>,
        { auth: fakeAuth({ session: userSession() }), path: '/mfa-settings' },
      );

    it('asks for the password and a current code, signs in again, then retries the change', async () => {
      let signedInAgain = false;
      const actions = stubMfaFunction(({ action }) => {
        if (action === 'ASSOCIATE_SOFTWARE_TOKEN')
          return signedInAgain ? jsonResponse({ secretCode: SECRET }) : stale();
        return jsonResponse(enabled);
      });
      const reauthenticate = vi.fn<Reauthenticate>(async () => {
        signedInAgain = true;
      });
      renderWithReauthentication(reauthenticate);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Set up a new authenticator' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
      expect(within(dialog).getByLabelText('Email')).toHaveValue(userSession().email);
      await user.type(within(dialog).getByLabelText('Password'), 'Current#Pass1');
      await user.type(within(dialog).getByLabelText('Authentication Code'), '112233');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
      expect(reauthenticate).toHaveBeenCalledWith('Current#Pass1', '112233');
      expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument();
      expect(actions.map((a) => a.action)).toEqual([
        'GET_MFA_STATUS',
        'ASSOCIATE_SOFTWARE_TOKEN',
        'ASSOCIATE_SOFTWARE_TOKEN',
      ]);
    });

    it('shows a refused sign-in, keeps the dialog and sends no change until it succeeds', async () => {
      const actions = stubMfaFunction(({ action }) =>
        action === 'ASSOCIATE_SOFTWARE_TOKEN' ? stale() : jsonResponse(enabled),
      );
      const reauthenticate = vi.fn<Reauthenticate>(async () => {
        throw Object.assign(new Error('Incorrect username or password.'), { code: 'NotAuthorizedException' });
      });
      renderWithReauthentication(reauthenticate);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Set up a new authenticator' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
      await user.type(within(dialog).getByLabelText('Password'), 'wrong');
      await user.type(within(dialog).getByLabelText('Authentication Code'), '112233');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      expect(await within(dialog).findByText('Incorrect username or password.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument());
      expect(actions.map((a) => a.action)).toEqual(['GET_MFA_STATUS', 'ASSOCIATE_SOFTWARE_TOKEN']);
    });
  });
});

describe('remembered devices on the MFA page', () => {
  // Devices report their user agent as their name.
  const LINUX_CHROME =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36';
  const IPHONE_SAFARI =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
  const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const devices = [
    {
      key: 'us-east-2_this',
      name: LINUX_CHROME,
      lastUsed: Date.UTC(2026, 10, 20, 9, 30),
      remembered: true,
      current: true,
    },
    {
      key: 'us-east-2_phone',
      name: IPHONE_SAFARI,
      lastUsed: Date.UTC(2026, 10, 18, 7, 0),
      remembered: true,
      current: false,
    },
    {
      key: 'us-east-2_kept',
      name: WINDOWS_FIREFOX,
      lastUsed: Date.UTC(2026, 10, 17),
      remembered: false,
      current: false,
    },
  ];
  const renderWithDevices = (overrides: Parameters<typeof fakeAuth>[0] = {}, rememberDevices = true) => {
    stubMfaFunction(() => jsonResponse(enabled));
    const auth = fakeAuth({ session: userSession(), listDevices: vi.fn(async () => devices), ...overrides });
    renderPage(<MfaSettingsPage />, { auth, path: '/mfa-settings', config: { ...testConfig, rememberDevices } });
    return auth;
  };

  it('lists the remembered devices with their last use and marks this one', async () => {
    renderWithDevices();
    const list = await screen.findByRole('list', { name: 'Remembered devices' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Chrome on Linux (this device)');
    expect(items[0]).toHaveTextContent(/Last used .*2026/);
    expect(within(items[0]!).getByText('Chrome on Linux')).toHaveAttribute('title', LINUX_CHROME);
    expect(items[1]).toHaveTextContent('Mobile Safari on iOS');
    expect(within(items[1]!).getByText('Mobile Safari on iOS')).toHaveAttribute('title', IPHONE_SAFARI);
    expect(screen.queryByText(/Firefox/)).not.toBeInTheDocument();
  });

  it('forgets another device at once', async () => {
    const auth = renderWithDevices();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forget Mobile Safari on iOS' }));
    await waitFor(() => expect(auth.forgetDevice).toHaveBeenCalledWith('us-east-2_phone'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(
      await screen.findByText(
        'The device was forgotten: it is signed out within 5 minutes and will be asked for a code at its next sign-in.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(auth.listDevices).toHaveBeenCalledTimes(2));
  });

  it('warns before forgetting this device that this browser will be signed out, and forgets it only once confirmed', async () => {
    const auth = renderWithDevices();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forget this device' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Forget this device?' });
    expect(dialog).toHaveTextContent(
      'This browser will be signed out at once. The next sign-in here will ask for a code from your authenticator app.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(auth.forgetDevice).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Forget this device' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Forget and sign out' }),
    );
    await waitFor(() => expect(auth.forgetDevice).toHaveBeenCalledWith('us-east-2_this'));
    // The provider signs this browser out: the card does not reload the list.
    expect(auth.listDevices).toHaveBeenCalledTimes(1);
  });

  it('reports a failure to forget', async () => {
    renderWithDevices({ forgetDevice: vi.fn(async () => Promise.reject(new Error('denied'))) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forget Mobile Safari on iOS' }));
    expect(await screen.findByText('Failed to forget the device')).toBeInTheDocument();
  });

  it('shows no devices card where the deployment does not remember devices', async () => {
    const auth = renderWithDevices({}, false);
    expect(await screen.findByText('Enabled')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Remembered devices' })).not.toBeInTheDocument();
    expect(auth.listDevices).not.toHaveBeenCalled();
  });
});

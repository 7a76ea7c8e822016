import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MfaStatus } from '#contracts/mfa.ts';
import {
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_ERRORS,
  PASSKEY_REMOVED_MESSAGE,
  PASSKEYS_OFF_MESSAGE,
  type Passkey,
  type PasskeyList,
} from '#contracts/passkeys.ts';
import MfaSettingsPage from '#web/features/settings/routes/mfa-settings-page.tsx';
import { PasskeyError } from '#web/lib/auth/passkey-ceremony.ts';
import { ReauthenticationContext, type Reauthenticate } from '#web/lib/auth/reauthentication.ts';
import { testConfig } from './support/config.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './support/render.tsx';

// The browser's ceremony (navigator.credentials.create) is replaced; its error class is kept.
const ceremony = vi.hoisted(() => ({ createPasskey: vi.fn() }));
vi.mock('#web/lib/auth/passkey-ceremony.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#web/lib/auth/passkey-ceremony.ts')>()),
  createPasskey: ceremony.createPasskey,
}));

type Body = { action: string; credential?: unknown; credentialId?: string };

const status: MfaStatus = { mfaEnabled: true, mfaDevices: [{ DeliveryMedium: 'SOFTWARE_TOKEN' }], mfaRequired: true };

const ADDED_LAPTOP = Date.UTC(2026, 0, 12, 9, 0);
const USED_LAPTOP = Date.UTC(2026, 2, 3, 16, 30);
const ADDED_KEY = Date.UTC(2025, 10, 24, 8, 0);
const ADDED_PHONE = Date.UTC(2026, 3, 5, 11, 0);
const date = (epochMs: number) => new Date(epochMs).toLocaleDateString();

const laptop: Passkey = {
  credentialId: 'cred-laptop',
  name: 'Work laptop',
  createdAt: ADDED_LAPTOP,
  lastUsedAt: USED_LAPTOP,
  attachment: 'platform',
};
const securityKey: Passkey = { credentialId: 'cred-key', name: 'YubiKey 5C', createdAt: ADDED_KEY };
const phone: Passkey = { credentialId: 'cred-phone', name: 'Pixel 9', createdAt: ADDED_PHONE };

const OPTIONS = { challenge: 'Y2hhbGxlbmdl', rp: { id: 'localhost', name: 'TVIQ' }, user: { id: 'dXNlcg', name: 'j' } };
const CREDENTIAL = {
  id: 'cred-phone',
  rawId: 'cred-phone',
  type: 'public-key',
  response: { clientDataJSON: 'Y2xpZW50', attestationObject: 'YXR0ZXN0' },
  clientExtensionResults: {},
};

/** The MFA function: the status and the passkey actions, each answered by `answer` (the list by default). */
function stubMfaFunction(answer: (body: Body) => Response | Promise<Response> | undefined, initial: PasskeyList) {
  const actions: Body[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      expect(String(input)).toBe(testConfig.functions.mfa);
      const body = JSON.parse(String(init?.body)) as Body;
      if (body.action === 'GET_MFA_STATUS') return jsonResponse(status);
      actions.push(body);
      return answer(body) ?? jsonResponse(initial);
    }),
  );
  return actions;
}

function renderCard({ passkeys = true, reauthenticate = vi.fn<Reauthenticate>(async () => undefined) } = {}) {
  renderPage(
    <ReauthenticationContext.Provider value={reauthenticate}>
      <MfaSettingsPage />
    </ReauthenticationContext.Provider>,
    {
      auth: fakeAuth({ session: userSession() }),
      path: '/mfa-settings',
      config: { ...testConfig, passkeys },
    },
  );
  return { user: userEvent.setup(), reauthenticate };
}

const card = () => screen.findByRole('region', { name: 'Passkeys' });
const listed = async () => within(await screen.findByRole('list', { name: 'Passkeys' })).getAllByRole('listitem');

/** The page's identity check: password and a current code, then Confirm. */
async function confirmIdentity(user: UserEvent) {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
  await user.type(within(dialog).getByLabelText('Password'), 'Current#Pass1');
  await user.type(within(dialog).getByLabelText('Authentication Code'), '112233');
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument());
}

async function declineIdentity(user: UserEvent) {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument());
}

beforeEach(() => {
  ceremony.createPasskey.mockReset();
});

describe('passkeys on the MFA page', () => {
  it('lists the passkeys with their names, when they were added and last used', async () => {
    stubMfaFunction(() => undefined, { passkeys: [laptop, securityKey], passkeyMfa: true });
    renderCard();
    const [first, second] = await listed();
    expect(first).toHaveTextContent('Work laptop');
    expect(first).toHaveTextContent(`Added ${date(ADDED_LAPTOP)}`);
    expect(first).toHaveTextContent(`Last used ${date(USED_LAPTOP)}`);
    expect(first).not.toHaveTextContent('Not used yet');
    expect(second).toHaveTextContent('YubiKey 5C');
    expect(second).toHaveTextContent(`Added ${date(ADDED_KEY)}`);
    expect(second).toHaveTextContent('Not used yet');
    expect(second).not.toHaveTextContent('Last used');
    const section = await card();
    expect(section).toHaveTextContent(/fingerprint, face or screen lock instead of a code/);
    expect(section).toHaveTextContent(/authenticator app stays as the backup/);
    expect(within(section).getByText('Counts as MFA')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it('says so when there is no passkey yet, without the MFA badge', async () => {
    stubMfaFunction(() => undefined, { passkeys: [], passkeyMfa: false });
    renderCard();
    const section = await card();
    expect(await within(section).findByText('No passkeys yet.')).toBeInTheDocument();
    expect(within(section).queryByText('Counts as MFA')).not.toBeInTheDocument();
    expect(within(section).queryByRole('list')).not.toBeInTheDocument();
  });

  it('asks for the password and a code first, then starts, creates and completes the passkey', async () => {
    const actions = stubMfaFunction(
      ({ action }) => {
        if (action === 'START_PASSKEY_REGISTRATION') return jsonResponse({ options: OPTIONS });
        if (action === 'COMPLETE_PASSKEY_REGISTRATION')
          return jsonResponse({ passkeys: [laptop, phone], passkeyMfa: true, message: PASSKEY_ADDED_MESSAGE });
        return undefined;
      },
      { passkeys: [laptop], passkeyMfa: false },
    );
    let created: (credential: typeof CREDENTIAL) => void = () => undefined;
    ceremony.createPasskey.mockImplementation(
      () =>
        new Promise((resolve) => {
          created = resolve;
        }),
    );
    const { user, reauthenticate } = renderCard();
    await listed();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    // Nothing is sent until the person has signed in again, however recent the session.
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(actions.map((body) => body.action)).toEqual(['LIST_PASSKEYS']);
    await confirmIdentity(user);
    expect(reauthenticate).toHaveBeenCalledWith('Current#Pass1', '112233');

    // The device's prompt is open: the card waits for it.
    await waitFor(() => expect(ceremony.createPasskey).toHaveBeenCalledWith(OPTIONS));
    const adding = screen.getByRole('button', { name: 'Adding...' });
    expect(adding).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove Work laptop' })).toBeDisabled();
    created(CREDENTIAL);

    expect(await screen.findByText(PASSKEY_ADDED_MESSAGE)).toBeInTheDocument();
    expect(actions).toEqual([
      { action: 'LIST_PASSKEYS' },
      { action: 'START_PASSKEY_REGISTRATION' },
      { action: 'COMPLETE_PASSKEY_REGISTRATION', credential: CREDENTIAL },
    ]);
    const items = await listed();
    expect(items).toHaveLength(2);
    expect(items[1]).toHaveTextContent('Pixel 9');
    expect(items[1]).toHaveTextContent(`Added ${date(ADDED_PHONE)}`);
    expect(items[1]).toHaveTextContent('Not used yet');
    expect(within(await card()).getByText('Counts as MFA')).toBeInTheDocument();
  });

  it('adds nothing when the person declines to sign in again', async () => {
    const actions = stubMfaFunction(() => undefined, { passkeys: [laptop], passkeyMfa: true });
    const { user, reauthenticate } = renderCard();
    await listed();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await declineIdentity(user);
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
    expect(reauthenticate).not.toHaveBeenCalled();
    expect(ceremony.createPasskey).not.toHaveBeenCalled();
    expect(actions.map((body) => body.action)).toEqual(['LIST_PASSKEYS']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a canceled passkey prompt in the card and changes nothing', async () => {
    const actions = stubMfaFunction(
      ({ action }) => (action === 'START_PASSKEY_REGISTRATION' ? jsonResponse({ options: OPTIONS }) : undefined),
      { passkeys: [laptop], passkeyMfa: true },
    );
    ceremony.createPasskey.mockRejectedValue(new PasskeyError('canceled'));
    const { user } = renderCard();
    await listed();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await confirmIdentity(user);
    const alert = await within(await card()).findByRole('alert');
    expect(alert).toHaveTextContent(PASSKEY_ERRORS.canceled);
    expect(actions.map((body) => body.action)).toEqual(['LIST_PASSKEYS', 'START_PASSKEY_REGISTRATION']);
    const items = await listed();
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('Work laptop');
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it("shows the function's refusal in the card", async () => {
    stubMfaFunction(
      ({ action }) =>
        action === 'START_PASSKEY_REGISTRATION'
          ? jsonResponse({ error: PASSKEYS_OFF_MESSAGE }, { status: 409 })
          : undefined,
      { passkeys: [], passkeyMfa: false },
    );
    const { user } = renderCard();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    await confirmIdentity(user);
    expect(await within(await card()).findByRole('alert')).toHaveTextContent(PASSKEYS_OFF_MESSAGE);
    expect(ceremony.createPasskey).not.toHaveBeenCalled();
  });

  it('removes a passkey after a confirmation naming it and the identity check, showing it busy meanwhile', async () => {
    let answerDelete: (response: Response) => void = () => undefined;
    const deleted = new Promise<Response>((resolve) => {
      answerDelete = resolve;
    });
    const actions = stubMfaFunction(({ action }) => (action === 'DELETE_PASSKEY' ? deleted : undefined), {
      passkeys: [laptop, securityKey],
      passkeyMfa: true,
    });
    const { user, reauthenticate } = renderCard();
    await listed();
    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove passkey?' });
    expect(dialog).toHaveTextContent('Remove the passkey Work laptop?');
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    // Nothing is sent until the person has signed in again, however recent the session.
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(actions.map((body) => body.action)).toEqual(['LIST_PASSKEYS']);
    await confirmIdentity(user);
    expect(reauthenticate).toHaveBeenCalledTimes(1);

    const removing = await screen.findByRole('button', { name: 'Remove Work laptop' });
    await waitFor(() => expect(removing).toHaveTextContent('Removing...'));
    expect(removing).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove YubiKey 5C' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
    answerDelete(jsonResponse({ passkeys: [securityKey], passkeyMfa: true, message: PASSKEY_REMOVED_MESSAGE }));

    expect(await screen.findByText(PASSKEY_REMOVED_MESSAGE)).toBeInTheDocument();
    expect(actions).toEqual([{ action: 'LIST_PASSKEYS' }, { action: 'DELETE_PASSKEY', credentialId: 'cred-laptop' }]);
    await waitFor(() => expect(screen.queryByText('Work laptop')).not.toBeInTheDocument());
    const items = await listed();
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('YubiKey 5C');
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it('removes nothing when the confirmation or the identity check is declined', async () => {
    const actions = stubMfaFunction(() => undefined, { passkeys: [laptop], passkeyMfa: true });
    const { user, reauthenticate } = renderCard();
    await listed();
    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Remove passkey?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Remove passkey?' })).getByRole('button', {
        name: 'Remove passkey',
      }),
    );
    await declineIdentity(user);
    expect(reauthenticate).not.toHaveBeenCalled();
    expect(actions.map((body) => body.action)).toEqual(['LIST_PASSKEYS']);
    expect((await listed())[0]).toHaveTextContent('Work laptop');
    expect(screen.getByRole('button', { name: 'Remove Work laptop' })).toHaveTextContent(/^Remove$/);
  });

  it('offers Retry when the passkeys cannot be loaded', async () => {
    let fail = true;
    stubMfaFunction(
      ({ action }) => (action === 'LIST_PASSKEYS' && fail ? new Response('{}', { status: 500 }) : undefined),
      { passkeys: [securityKey], passkeyMfa: true },
    );
    const { user } = renderCard();
    const section = await card();
    expect(await within(section).findByRole('alert')).toHaveTextContent('Failed to load passkeys');
    expect(within(section).queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
    fail = false;
    await user.click(within(section).getByRole('button', { name: 'Retry' }));
    expect((await listed())[0]).toHaveTextContent('YubiKey 5C');
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('does not offer another passkey once the account holds the most it may (20)', async () => {
    const many = Array.from({ length: 20 }, (_, index) => ({
      ...securityKey,
      credentialId: `cred-${index}`,
      name: `Key ${index + 1}`,
    }));
    stubMfaFunction(() => undefined, { passkeys: many, passkeyMfa: true });
    renderCard();
    expect(await listed()).toHaveLength(20);
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
    expect(screen.getByText(/Remove one to add another/)).toBeInTheDocument();
  });

  it('is not shown where the deployment has passkeys off', async () => {
    const actions = stubMfaFunction(() => undefined, { passkeys: [laptop], passkeyMfa: true });
    renderCard({ passkeys: false });
    expect(await screen.findByText('Enabled')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Passkeys' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
    expect(actions).toEqual([]);
  });
});

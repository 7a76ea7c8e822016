import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  type GetEmailIdentityCommandOutput,
  SendEmailCommand,
  type SendEmailCommandInput,
} from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localOnly } from './support/evidence.ts';
import { scratchDomain, sesTarget, unverifiedAddress, type SesTarget } from './support/ses-target.ts';
import { scratchName } from './support/target.ts';

/**
 * SES as the product meets it in a new account: the contact function sends from a verified
 * sender to the support address while the account is in the sandbox. Runs against local
 * mode, and unchanged against AWS (`npm run conformance -- --aws`, with
 * CONFORMANCE_SES_SENDER and CONFORMANCE_SES_VERIFIED_RECIPIENT set).
 */
let ses: SesTarget;

/** Why a case is skipped in `--aws` runs (support/evidence.ts localOnly). */
const SANDBOX_STATE = 'depends on the account being in the SES sandbox, which a real account may have left';
const REAL_MAIL = 'delivers real mail to a person; on AWS the mailbox simulator case shows that a send is accepted';

beforeAll(async () => {
  ses = await sesTarget();
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(async () => {
  await ses?.close();
});

function message(to: string[], subject: string, from = ses.sender): SendEmailCommandInput {
  return {
    FromEmailAddress: from,
    Destination: { ToAddresses: to },
    Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: 'Conformance test message' } } } },
  };
}

/** SES's refusal of unverified identities; the region is the endpoint's, in capitals. */
const NOT_VERIFIED =
  /^Email address is not verified\. The following identities failed the check in region [A-Z0-9-]+: /;

/** SES's own refusals: sent as the operator, since the contact function's role allows only its sender and recipient. */
async function refusal(input: SendEmailCommandInput): Promise<unknown> {
  return ses.operator.send(new SendEmailCommand(input)).then(
    () => new Error('SendEmail was accepted'),
    (error: unknown) => error,
  );
}

/**
 * SendEmail for a message the account accepts. The sandbox sends at most 1 email per second
 * (https://docs.aws.amazon.com/ses/latest/dg/quotas.html) and refuses more as throttling
 * (https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html); the client's
 * own retries may not outwait that, so a throttled send waits one more second and goes again.
 */
async function sendWithinRate(input: SendEmailCommandInput, client = ses.client) {
  try {
    return await client.send(new SendEmailCommand(input));
  } catch (error) {
    if ((error as Error).name !== 'TooManyRequestsException') throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return client.send(new SendEmailCommand(input));
  }
}

/** The identity that verifies an address: the address itself or, failing that, its domain. */
async function identityCovering(address: string): Promise<GetEmailIdentityCommandOutput> {
  try {
    return await ses.operator.send(new GetEmailIdentityCommand({ EmailIdentity: address }));
  } catch (error) {
    if ((error as Error).name !== 'NotFoundException') throw error;
    return ses.operator.send(
      new GetEmailIdentityCommand({ EmailIdentity: address.slice(address.lastIndexOf('@') + 1) }),
    );
  }
}

// https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html
describe('Request production access (Moving out of the Amazon SES sandbox)', () => {
  localOnly(SANDBOX_STATE)(
    'GetAccount in the sandbox: no production access, sending enabled, at most 200 messages per 24 hours and 1 per second',
    async () => {
      const account = await ses.operator.send(new GetAccountCommand({}));
      // A failure here on AWS means the account has production access: the sandbox cases below do not apply to it.
      expect(account.ProductionAccessEnabled).toBe(false);
      expect(account.SendingEnabled).toBe(true);
      expect(account.SendQuota).toMatchObject({ Max24HourSend: 200, MaxSendRate: 1 });
    },
  );

  localOnly(REAL_MAIL)('SendEmail in the sandbox: a verified sender to a verified recipient is accepted', async () => {
    const subject = `Conformance ${scratchName('delivered')}`;
    const sent = await sendWithinRate(message([ses.verifiedRecipient], subject));
    expect(sent.MessageId).toEqual(expect.any(String));
    expect(await ses.delivered(subject)).not.toBe(false);
  });

  localOnly(SANDBOX_STATE)(
    'SendEmail in the sandbox: an unverified recipient is refused with MessageRejected',
    async () => {
      // Checked first so that an account with production access never sends to the address.
      expect((await ses.operator.send(new GetAccountCommand({}))).ProductionAccessEnabled).toBe(false);
      const recipient = unverifiedAddress();
      const subject = `Conformance ${scratchName('refused')}`;
      const error = await refusal(message([ses.verifiedRecipient, recipient], subject));
      expect(error).toMatchObject({ name: 'MessageRejected', $metadata: { httpStatusCode: 400 } });
      expect((error as Error).message).toMatch(NOT_VERIFIED);
      expect((error as Error).message).toContain(recipient);
      expect((error as Error).message).not.toContain(ses.verifiedRecipient);
      expect(await ses.delivered(subject)).not.toBe(true);
    },
  );

  it('SendEmail in the sandbox: the mailbox simulator is accepted as a recipient without verification', async () => {
    const sent = await sendWithinRate(
      message(['success@simulator.amazonses.com'], `Conformance ${scratchName('simulator')}`),
      ses.operator,
    );
    expect(sent.MessageId).toEqual(expect.any(String));
  });
});

// https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html (BadRequestException, 400) and
// https://docs.aws.amazon.com/ses/latest/APIReference/API_SendEmail.html: "The message must include at least
// one recipient email address. The recipient address can be a To: address, a CC: address, or a BCC: address."
describe('SendEmail (SES API v2)', () => {
  it('SendEmail: a message without any recipient is refused with BadRequestException and not delivered', async () => {
    const subject = `Conformance ${scratchName('no-recipient')}`;
    const withoutRecipients: SendEmailCommandInput = { ...message([], subject), Destination: undefined };
    for (const input of [withoutRecipients, message([], subject)]) {
      expect(await refusal(input)).toMatchObject({ name: 'BadRequestException', $metadata: { httpStatusCode: 400 } });
    }
    expect(await ses.delivered(subject)).not.toBe(true);
  });
});

// https://docs.aws.amazon.com/ses/latest/dg/verify-addresses-and-domains.html
describe('Verified identities in Amazon SES', () => {
  it('SendEmail: a sender no verified identity covers is refused with MessageRejected naming it', async () => {
    const sender = unverifiedAddress();
    const error = await refusal(message([ses.verifiedRecipient], `Conformance ${scratchName('sender')}`, sender));
    expect(error).toMatchObject({ name: 'MessageRejected', $metadata: { httpStatusCode: 400 } });
    expect((error as Error).message).toMatch(NOT_VERIFIED);
    expect((error as Error).message).toContain(sender);
  });

  it('GetEmailIdentity: the identity covering the verified sender is verified for sending', async () => {
    const identity = await identityCovering(ses.sender);
    expect(identity).toMatchObject({ VerifiedForSendingStatus: true, VerificationStatus: 'SUCCESS' });
    expect(['EMAIL_ADDRESS', 'DOMAIN']).toContain(identity.IdentityType);
  });

  it('GetEmailIdentity: an identity never created is NotFoundException', async () => {
    await expect(
      ses.operator.send(new GetEmailIdentityCommand({ EmailIdentity: scratchDomain() })),
    ).rejects.toMatchObject({
      name: 'NotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
  });
});

// https://docs.aws.amazon.com/ses/latest/dg/creating-identities.html
describe('Creating and verifying identities in Amazon SES', () => {
  it('CreateEmailIdentity: a new domain identity is pending and not verified for sending, and creating it again is AlreadyExistsException', async () => {
    const domain = scratchDomain();
    const created = await ses.operator.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
    try {
      expect(created).toMatchObject({ IdentityType: 'DOMAIN', VerifiedForSendingStatus: false });
      expect(await ses.operator.send(new GetEmailIdentityCommand({ EmailIdentity: domain }))).toMatchObject({
        IdentityType: 'DOMAIN',
        VerifiedForSendingStatus: false,
        VerificationStatus: 'PENDING',
      });
      await expect(ses.operator.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }))).rejects.toMatchObject({
        name: 'AlreadyExistsException',
      });
      const error = await refusal(
        message([ses.verifiedRecipient], `Conformance ${scratchName('pending')}`, `someone@${domain}`),
      );
      expect(error).toMatchObject({ name: 'MessageRejected' });
    } finally {
      await ses.operator.send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
    }
    await expect(ses.operator.send(new GetEmailIdentityCommand({ EmailIdentity: domain }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS } from '#clients/local-stack.ts';
import { sesRules } from '#local/iam/services.ts';
import { startMailCapture } from '#emulators/ses/capture.ts';
import { IdentityStore } from '#emulators/ses/identities.ts';
import { capturedMailListSchema } from '#emulators/ses/messages.ts';
import { recordResponses } from './evidence.ts';
import { startFrontDoor } from './front-door.ts';
import { awsSetting, onAws, REGION, scratchName } from './target.ts';

/**
 * SES for the conformance tests: locally the mail capture behind its sandbox front (port 0,
 * a temporary data directory, the product's verified sender and recipient) and in front of
 * that local mode's IAM gate; on AWS the SES of the current credentials' account and region,
 * with a sender and a recipient the person running the suite has verified there.
 */
export interface SesTarget {
  /** Sends as the contact function does: locally signed with the functions' role credentials. */
  readonly client: SESv2Client;
  /**
   * The account's operator: identities, the account's state and the sandbox's refusals, which
   * no function's role is allowed to ask for (the administrator locally; on AWS the same client).
   */
  readonly operator: SESv2Client;
  /** A verified identity covers it. */
  readonly sender: string;
  /** A verified identity covers it (in the sandbox, a recipient must be verified too). */
  readonly verifiedRecipient: string;
  /**
   * Whether a message with this subject reached the recipient: known locally (the capture),
   * not observable on AWS (undefined).
   */
  delivered(subject: string): Promise<boolean | undefined>;
  close(): Promise<void>;
}

/**
 * An address no identity can cover and no mail can reach: `.invalid` is reserved (RFC 2606)
 * and never resolves, so even an account out of the sandbox could not deliver to it.
 */
export const unverifiedAddress = (): string => `${scratchName('unverified')}@example.invalid`;

/** A domain nobody can verify (example.com is reserved, RFC 2606), for scratch identities. */
export const scratchDomain = (): string => `${scratchName('ses')}.example.com`;

export async function sesTarget(): Promise<SesTarget> {
  if (onAws) {
    const sender = awsSetting(
      'CONFORMANCE_SES_SENDER',
      'a sender address verified in SES (address or domain identity) in AWS_REGION',
    );
    const verifiedRecipient = awsSetting(
      'CONFORMANCE_SES_VERIFIED_RECIPIENT',
      'a recipient address verified in SES in AWS_REGION (test messages are delivered to it)',
    );
    const client = recordResponses(new SESv2Client({ region: REGION }));
    return {
      client,
      operator: client,
      sender,
      verifiedRecipient,
      delivered: async () => undefined,
      close: async () => client.destroy(),
    };
  }

  // The contact function's sender and recipient, which its role may send from and to.
  const sender = SUPPORT_FROM_ADDRESS;
  const verifiedRecipient = SUPPORT_TO_ADDRESS;
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-conformance-ses-'));
  const capture = await startMailCapture({
    host: '127.0.0.1',
    port: 0,
    apiPort: 0,
    dataDir,
    verifiedIdentities: [sender, verifiedRecipient],
  });
  const identities = new IdentityStore();
  identities.verify([sender, verifiedRecipient]);
  const door = await startFrontDoor({
    rules: sesRules({ sandbox: true, identityOf: (address) => identities.identityCovering(address) ?? address }),
    upstream: capture.sesEndpoint,
  });
  const client = new SESv2Client({ endpoint: door.url, region: REGION, credentials: door.functions, maxAttempts: 1 });
  const operator = new SESv2Client({
    endpoint: door.url,
    region: REGION,
    credentials: door.administrator,
    maxAttempts: 1,
  });
  return {
    client,
    operator,
    sender,
    verifiedRecipient,
    async delivered(subject) {
      const response = await fetch(capture.apiUrl);
      return capturedMailListSchema.parse(await response.json()).some((mail) => mail.subject === subject);
    },
    async close() {
      client.destroy();
      operator.destroy();
      await door.close();
      await capture.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

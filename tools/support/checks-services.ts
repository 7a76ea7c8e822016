import {
  DescribeAccountSubscriptionCommand,
  DescribeNamespaceCommand,
  type QuickSightClient,
} from '@aws-sdk/client-quicksight';
import { GetAccountCommand, GetEmailIdentityCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { PLACEHOLDER_SENDER, PLACEHOLDER_SUPPORT_RECIPIENT } from '#lib/config-placeholders.ts';
import type { PortalConfig } from '#lib/config.ts';
import { MAX_EMBED_ORIGINS, embedOriginsProblems } from '#contracts/embed-origins.ts';
import { describeError } from './cli.ts';
import type { CheckResult } from './report.ts';

/**
 * Checks of QuickSight, SES and the embed origins, the same against AWS and the local
 * emulators: only the clients differ. Each result says how to fix what it found.
 */

const QUICKSIGHT_CONSOLE = 'https://quicksight.aws.amazon.com/';
const CLOUDFRONT_ADDRESS = 'the CloudFront address';
const SUPPORTED_EDITIONS = new Set(['ENTERPRISE', 'ENTERPRISE_AND_Q']);
const errorName = (error: unknown) => (error instanceof Error ? error.name : '');

export async function quicksightSubscription(client: QuickSightClient, accountId: string): Promise<CheckResult> {
  const title = 'QuickSight subscription';
  try {
    const { AccountInfo: info } = await client.send(
      new DescribeAccountSubscriptionCommand({ AwsAccountId: accountId }),
    );
    const edition = info?.Edition ?? 'unknown';
    const status = info?.AccountSubscriptionStatus ?? 'unknown';
    if (!SUPPORTED_EDITIONS.has(edition)) {
      return {
        title,
        status: 'fail',
        detail: `account ${accountId} has the ${edition} edition; embedding for registered users needs Enterprise`,
        fix: `Upgrade to Enterprise: ${QUICKSIGHT_CONSOLE} > Manage QuickSight > Your subscriptions`,
      };
    }
    if (status !== 'ACCOUNT_CREATED' && status !== 'OK') {
      return {
        title,
        status: 'fail',
        detail: `subscription status is ${status}`,
        fix: `Finish the sign-up at ${QUICKSIGHT_CONSOLE}`,
      };
    }
    return {
      title,
      status: 'pass',
      detail: `${edition} edition, ${status}${info?.AuthenticationType ? `, ${info.AuthenticationType}` : ''} (account ${accountId})`,
    };
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException') {
      return {
        title,
        status: 'fail',
        detail: `account ${accountId} has no QuickSight subscription`,
        fix: `Sign up for QuickSight Enterprise at ${QUICKSIGHT_CONSOLE} (or aws quicksight create-account-subscription --edition ENTERPRISE ...)`,
      };
    }
    return {
      title,
      status: 'fail',
      detail: describeError(error),
      fix: 'Check that the credentials may call quicksight:DescribeAccountSubscription',
    };
  }
}

/**
 * The namespace, asked in the configured identity region: QuickSight answers user and
 * namespace calls only there, and its refusal names the right region.
 */
export async function quicksightNamespace(
  client: QuickSightClient,
  accountId: string,
  config: PortalConfig,
): Promise<CheckResult> {
  const title = 'QuickSight identity region and namespace';
  const namespace = config.quicksightNamespace;
  const region = config.quicksightIdentityRegion;
  try {
    const { Namespace: found } = await client.send(
      new DescribeNamespaceCommand({ AwsAccountId: accountId, Namespace: namespace }),
    );
    if (found?.CreationStatus !== 'CREATED') {
      return {
        title,
        status: 'fail',
        detail: `namespace ${namespace} is ${found?.CreationStatus ?? 'in an unknown state'}`,
        fix: 'Wait for its creation to finish, or create it again',
      };
    }
    return {
      title,
      status: 'pass',
      detail: `identity region ${region}, namespace ${namespace} (${found.IdentityStore ?? 'QUICKSIGHT'} identity store)`,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const actual = /identity region is ([a-z0-9-]+)/i.exec(message)?.[1];
    if (actual && actual !== region) {
      return {
        title,
        status: 'fail',
        detail: `the identity region is ${actual}, not ${region}`,
        fix: `Set quicksightIdentityRegion: -c quicksightIdentityRegion=${actual} (or in cdk.json's context)`,
      };
    }
    if (errorName(error) === 'ResourceNotFoundException') {
      return {
        title,
        status: 'fail',
        detail: `namespace ${namespace} does not exist in account ${accountId}`,
        fix: `aws quicksight create-namespace --aws-account-id ${accountId} --namespace ${namespace} --identity-store QUICKSIGHT --region ${region}\n(or set quicksightNamespace to an existing one)`,
      };
    }
    return {
      title,
      status: 'fail',
      detail: describeError(error),
      fix: 'Check that the credentials may call quicksight:DescribeNamespace',
    };
  }
}

type IdentityState = { verified: boolean; identity: string } | undefined;

/** The verification of an identity, or undefined when SES does not know it. */
async function identityState(client: SESv2Client, identity: string): Promise<IdentityState> {
  try {
    const answer = await client.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    return { verified: answer.VerifiedForSendingStatus === true, identity };
  } catch (error) {
    if (errorName(error) === 'NotFoundException') return undefined;
    throw error;
  }
}

/** The address's own identity if SES knows it, else its domain's. */
async function coveringIdentity(client: SESv2Client, address: string): Promise<IdentityState> {
  const own = await identityState(client, address);
  if (own?.verified) return own;
  const domain = await identityState(client, address.split('@')[1] ?? '');
  return domain?.verified ? domain : (own ?? domain);
}

const createIdentity = (identity: string, region: string) =>
  `aws sesv2 create-email-identity --email-identity ${identity} --region ${region}` +
  (identity.includes('@')
    ? '\nthen open the link SES sends to that address'
    : '\nthen publish the DKIM records it returns');

/** Sender identity, sandbox or production, and (in the sandbox) the support recipient. */
export async function sesChecks(client: SESv2Client, config: PortalConfig, region: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const senderTitle = 'SES sender identity';
  if (config.sesSenderAddress === PLACEHOLDER_SENDER) {
    results.push({
      title: senderTitle,
      status: 'fail',
      detail: `sesSenderAddress is the placeholder ${PLACEHOLDER_SENDER}`,
      fix: 'Set it to an address (or an address of a domain) verified in SES: -c sesSenderAddress=no-reply@yourcompany.com',
    });
  } else {
    try {
      const state = await identityState(client, config.sesIdentity);
      results.push(
        state?.verified
          ? {
              title: senderTitle,
              status: 'pass',
              detail: `${config.sesIdentity} is verified in ${region} (sender ${config.sesSenderAddress})`,
            }
          : {
              title: senderTitle,
              status: 'fail',
              detail: `${config.sesIdentity} is ${state ? 'not verified yet' : 'not an SES identity'} in ${region}`,
              fix: state
                ? `Open the verification link SES sent (or for a domain, publish its DKIM records); SES console > Identities > ${config.sesIdentity}`
                : createIdentity(config.sesIdentity, region),
            },
      );
    } catch (error) {
      results.push({
        title: senderTitle,
        status: 'fail',
        detail: describeError(error),
        fix: 'Check that the credentials may call ses:GetEmailIdentity',
      });
    }
  }

  let sandbox = true;
  try {
    const account = await client.send(new GetAccountCommand({}));
    sandbox = account.ProductionAccessEnabled !== true;
    if (account.SendingEnabled === false) {
      results.push({
        title: 'SES account',
        status: 'fail',
        detail: `sending is paused in ${region}`,
        fix: `SES console (${region}) > Account dashboard: see why sending was paused and resume it`,
      });
    } else {
      results.push({
        title: 'SES account',
        status: sandbox ? 'warn' : 'pass',
        detail: sandbox
          ? `in the sandbox in ${region}: mail goes only to verified addresses`
          : `production access in ${region}`,
        fix: `Before inviting real users: SES console (${region}) > Account dashboard > Request production access`,
      });
    }
  } catch (error) {
    results.push({
      title: 'SES account',
      status: 'fail',
      detail: describeError(error),
      fix: 'Check that the credentials may call ses:GetAccount',
    });
  }

  const recipientTitle = 'Support recipient';
  const recipient = config.supportRecipientAddress;
  if (recipient === PLACEHOLDER_SUPPORT_RECIPIENT) {
    results.push({
      title: recipientTitle,
      status: 'fail',
      detail: `supportRecipientAddress is the placeholder ${PLACEHOLDER_SUPPORT_RECIPIENT}`,
      fix: 'Set the address support requests go to: -c supportRecipientAddress=support@yourcompany.com',
    });
  } else if (!sandbox) {
    results.push({
      title: recipientTitle,
      status: 'pass',
      detail: `${recipient} (production access: no verification needed)`,
    });
  } else {
    try {
      const state = await coveringIdentity(client, recipient);
      results.push(
        state?.verified
          ? {
              title: recipientTitle,
              status: 'pass',
              detail: `${recipient} is verified (${state.identity}), as the sandbox requires`,
            }
          : {
              title: recipientTitle,
              status: 'fail',
              detail: `${recipient} is not verified, and the sandbox sends only to verified addresses`,
              fix: createIdentity(recipient, region),
            },
      );
    } catch (error) {
      results.push({
        title: recipientTitle,
        status: 'fail',
        detail: describeError(error),
        fix: 'Check that the credentials may call ses:GetEmailIdentity',
      });
    }
  }
  return results;
}

/**
 * The origins QuickSight embeds into: the site's own and allowedOrigins, at most
 * MAX_EMBED_ORIGINS, each one QuickSight accepts in AllowedDomains. Before the first
 * deployment the site is a CloudFront address, which is always acceptable.
 */
export function embedOrigins(siteOrigin: string | undefined, config: PortalConfig): CheckResult {
  const title = 'Embed origins';
  const site = siteOrigin ?? (config.domainName ? `https://${config.domainName}` : undefined);
  const origins = [site ?? CLOUDFRONT_ADDRESS, ...config.allowedOrigins];
  const problems = embedOriginsProblems(site ? origins : origins.slice(1));
  if (!site && origins.length > MAX_EMBED_ORIGINS)
    problems.push(`${origins.length} origins are more than the ${MAX_EMBED_ORIGINS} domains QuickSight embeds in`);
  if (problems.length > 0) {
    return {
      title,
      status: 'fail',
      detail: problems.join('; '),
      fix: `Correct allowedOrigins: https:// origins (http only for localhost), at most ${MAX_EMBED_ORIGINS - 1} besides the site`,
    };
  }
  return {
    title,
    status: 'pass',
    detail: `${origins.join(', ')} (${origins.length} of the ${MAX_EMBED_ORIGINS} QuickSight allows)`,
  };
}

import { CreateGroupCommand, QuickSightClient, ResourceExistsException } from '@aws-sdk/client-quicksight';
import { GetObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import {
  LOCAL_ACCOUNT_ID,
  LOCAL_AUTHORS_GROUP,
  LOCAL_CREDENTIALS,
  QUICKSIGHT_NAMESPACE,
} from '#clients/local-stack.ts';
import type { SynthesizedDeployment } from './aws/deployment.ts';
import { localResourceNames, resolveValue, type LocalValues } from './aws/resolve.ts';
import { ObjectAccessDenied } from '#emulators/quicksight/ingest.ts';
import { newCredentials } from './functions.ts';
import type { LocalIam, LocalPrincipal } from './iam/policies.ts';

/**
 * QuickSight's access in local mode. It reads S3 as QuickSight does: with the data source's role
 * (S3Parameters.RoleArn). The template's rules read role becomes a principal of the local IAM,
 * held to the role's identity policies, and every read signs as that role through local S3's
 * IAM gate, so a role whose policy does not allow a read is refused there (AccessDenied) and
 * the data source fails, or the ingestion, as in AWS. Local mode has no account-wide QuickSight
 * service role: a data source without a RoleArn, or naming a role the template does not
 * define, reads nothing. And the group standing for the account's authors exists, so that the
 * rules can be granted to it as to a deployment's configured author.
 */

export interface RoleReads {
  /** For the QuickSight emulator's `readObject`. */
  readObject(bucket: string, key: string, roleArn?: string): Promise<string | undefined>;
  /** For the QuickSight emulator's `listObjects`. */
  listObjects(bucket: string, prefix: string, roleArn?: string): Promise<string[]>;
  /** Adds the roles QuickSight may assume, once the values their policies refer to are known. */
  addRoles(deployment: SynthesizedDeployment, values: LocalValues): void;
  close(): void;
}

/** The template's rules read role, and its session as QuickSight assumes it: its policies resolved to local values. */
function rulesReadRole(
  deployment: SynthesizedDeployment,
  values: LocalValues,
): { readonly roleArn: string; readonly principal: LocalPrincipal } {
  const roleName = localResourceNames(deployment.stackName).companyRulesReadRole;
  return {
    roleArn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/${roleName}`,
    principal: {
      name: `QuickSight with role ${roleName}`,
      arn: `arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/${roleName}/quicksight`,
      ...newCredentials(),
      policies: deployment.companyRulesReadRolePolicies.map((policy) => ({
        name: policy.name,
        policy: resolveValue(policy.document, values),
      })),
    },
  };
}

const denied = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'AccessDenied' || error.$metadata.httpStatusCode === 403);

/** Reads through local S3's gate (`s3Endpoint`) as the role a data source names. */
export function roleReads(iam: LocalIam, s3Endpoint: () => string, region: string): RoleReads {
  const clients = new Map<string, S3Client>();
  const clientFor = (roleArn: string | undefined): S3Client => {
    if (roleArn === undefined)
      throw new ObjectAccessDenied(
        'Local mode has no account-wide QuickSight service role: give the data source a RoleArn',
      );
    const client = clients.get(roleArn);
    if (!client) throw new ObjectAccessDenied(`QuickSight cannot assume ${roleArn}: the template defines no such role`);
    return client;
  };
  return {
    async readObject(bucket, key, roleArn) {
      try {
        const result = await clientFor(roleArn).send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return (await result.Body?.transformToString('utf8')) ?? '';
      } catch (error) {
        if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return undefined;
        if (denied(error)) throw new ObjectAccessDenied((error as Error).message);
        throw error;
      }
    },
    async listObjects(bucket, prefix, roleArn) {
      const keys: string[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await clientFor(roleArn).send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
          );
          keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
          token = page.NextContinuationToken;
        } while (token);
      } catch (error) {
        if (denied(error)) throw new ObjectAccessDenied((error as Error).message);
        throw error;
      }
      return keys;
    },
    addRoles(deployment, values) {
      const { roleArn, principal } = rulesReadRole(deployment, values);
      iam.add(principal);
      clients.set(
        roleArn,
        new S3Client({
          endpoint: s3Endpoint(),
          region,
          forcePathStyle: true,
          credentials: { accessKeyId: principal.accessKeyId, secretAccessKey: principal.secretAccessKey },
          maxAttempts: 1,
        }),
      );
    },
    close() {
      for (const client of clients.values()) client.destroy();
      clients.clear();
    },
  };
}

/** The group local mode's configuration names as the rules' author (quicksightAuthorArn), made once. */
export async function ensureAuthorsGroup(endpoint: string, region: string): Promise<void> {
  const client = new QuickSightClient({ endpoint, region, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  try {
    await client.send(
      new CreateGroupCommand({
        AwsAccountId: LOCAL_ACCOUNT_ID,
        Namespace: QUICKSIGHT_NAMESPACE,
        GroupName: LOCAL_AUTHORS_GROUP,
        Description: 'QuickSight authors: the row-level-security rules are granted to them',
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceExistsException)) throw error;
  } finally {
    client.destroy();
  }
}

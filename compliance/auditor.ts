import { auditTrailIntegrity } from './audit-trail.ts';
import { storeDataOf } from './inventory.ts';
import {
  mfaStatement,
  passwordStatement,
  signInSettingsOf,
  signUpStatement,
  threatProtectionReason,
} from './sign-in-claims.ts';
import {
  asList,
  isRecord,
  readable,
  readableList,
  referencedId,
  resourceName,
  resourcesOfType,
  type StackTemplate,
  type TemplateResource,
} from './template.ts';

/**
 * What auditors ask for, computed from a synthesized template: per data store the encryption
 * at rest and in transit, retention, backups with their recovery point and time; log
 * integrity, split into what the stack does and what the account must provide; and the
 * answers to the findings AWS Security Hub and Prowler raise on this design.
 */

interface StoreEvidence {
  readonly store: string;
  readonly kind: string;
  readonly classification: string;
  readonly atRest: string;
  readonly inTransit: string;
  readonly retention: string;
  readonly backup: string;
  /** Recovery point and time objectives the settings give. */
  readonly rpoRto: string;
}

interface Responsibility {
  readonly topic: string;
  readonly stack: string;
  readonly account: string;
}

interface FindingAnswer {
  readonly finding: string;
  /** Security Hub control and Prowler check IDs that raise it. */
  readonly raisedBy: string;
  readonly resources: string;
  readonly answer: string;
  /** The setting that makes the stricter choice, or why there is none. */
  readonly stricterChoice: string;
}

export interface AuditorEvidence {
  readonly stores: readonly StoreEvidence[];
  readonly logIntegrity: readonly Responsibility[];
  readonly restoreSteps: readonly string[];
  readonly findings: readonly FindingAnswer[];
}

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);
const kept = (resource: TemplateResource) =>
  resource.DeletionPolicy === 'Retain' || resource.DeletionPolicy === 'RetainExceptOnCreate'
    ? 'kept on stack deletion'
    : 'deleted with the stack';
const classification = (resource: TemplateResource) => {
  const data = storeDataOf(resource);
  return data
    ? `${data.classification}${data.personalData.length > 0 ? `: ${data.personalData.join('; ')}` : ''}`
    : 'not declared';
};

/** Whether a resource policy of the template denies requests without TLS on the resource. */
function deniesPlainHttp(stack: StackTemplate, policyType: string, targetProperty: string, targetId: string): boolean {
  return resourcesOfType(stack.template, policyType)
    .filter(([, policy]) => asList(policy.Properties?.[targetProperty]).some((ref) => referencedId(ref) === targetId))
    .some(([, policy]) =>
      asList(at(policy.Properties, 'PolicyDocument', 'Statement') as unknown[]).some(
        (statement) =>
          isRecord(statement) &&
          statement.Effect === 'Deny' &&
          String(at(statement.Condition, 'Bool', 'aws:SecureTransport')) === 'false',
      ),
    );
}

function tableEvidence(stack: StackTemplate): StoreEvidence[] {
  return resourcesOfType(stack.template, 'AWS::DynamoDB::Table').map(([id, table]) => {
    const p = table.Properties ?? {};
    const kms = at(p, 'SSESpecification', 'KMSMasterKeyId');
    const pitr = at(p, 'PointInTimeRecoverySpecification', 'PointInTimeRecoveryEnabled') === true;
    const ttl =
      at(p, 'TimeToLiveSpecification', 'Enabled') === true
        ? `items expire by their ${readable(stack, at(p, 'TimeToLiveSpecification', 'AttributeName'))} attribute (DynamoDB TTL)`
        : 'items kept until deleted';
    return {
      store: resourceName(stack, id),
      kind: 'DynamoDB table',
      classification: classification(table),
      atRest:
        at(p, 'SSESpecification', 'SSEEnabled') === true
          ? `AES-256, KMS ${kms ? readable(stack, kms) : 'AWS managed key aws/dynamodb'}`
          : 'AES-256 with an AWS owned key (DynamoDB always encrypts)',
      inTransit: 'TLS only: DynamoDB endpoints accept HTTPS only; the functions call them with the AWS SDK',
      retention: `${ttl}; ${kept(table)}${p.DeletionProtectionEnabled === true ? '; deletion protection on' : ''}`,
      backup: pitr ? 'point-in-time recovery, any second of the last 35 days' : 'none (point-in-time recovery off)',
      rpoRto: pitr
        ? 'RPO about 5 minutes (the latest restorable time trails the present by about 5 minutes); RTO: the restore to a new table (hours for large tables, usually well under one for these small ones) plus the steps below'
        : 'no recovery point: data lost with the table',
    };
  });
}

function bucketEvidence(stack: StackTemplate): StoreEvidence[] {
  return resourcesOfType(stack.template, 'AWS::S3::Bucket').map(([id, bucket]) => {
    const p = bucket.Properties ?? {};
    const algorithms = asList(at(p, 'BucketEncryption', 'ServerSideEncryptionConfiguration') as unknown[]).map((rule) =>
      readable(stack, at(rule, 'ServerSideEncryptionByDefault', 'SSEAlgorithm')),
    );
    const versioning = at(p, 'VersioningConfiguration', 'Status') === 'Enabled';
    const rules = asList(at(p, 'LifecycleConfiguration', 'Rules') as unknown[]);
    const expiry = rules.map((rule) => at(rule, 'ExpirationInDays')).find((days) => days !== undefined);
    const noncurrent = rules
      .map((rule) => at(rule, 'NoncurrentVersionExpiration', 'NoncurrentDays'))
      .find((days) => days !== undefined);
    return {
      store: resourceName(stack, id),
      kind: 'S3 bucket',
      classification: classification(bucket),
      atRest:
        algorithms.length > 0
          ? algorithms.map((a) => (a === 'AES256' ? 'SSE-S3 (AES-256)' : a === 'aws:kms' ? 'SSE-KMS' : a)).join(', ')
          : 'SSE-S3 (S3 default)',
      inTransit: deniesPlainHttp(stack, 'AWS::S3::BucketPolicy', 'Bucket', id)
        ? 'TLS only: the bucket policy denies every request without TLS (aws:SecureTransport false)'
        : 'not enforced by the bucket policy',
      retention: `${expiry !== undefined ? `objects expire after ${String(expiry)} days` : 'objects kept until deleted'}${noncurrent !== undefined ? `; overwritten or deleted versions kept ${String(noncurrent)} days` : ''}; ${kept(bucket)}`,
      backup: versioning
        ? `versioning: earlier versions restorable${noncurrent !== undefined ? ` for ${String(noncurrent)} days` : ''}`
        : 'none (versioning off)',
      rpoRto: versioning
        ? 'RPO 0 for overwrites and deletions within the version window; RTO minutes (copy the earlier version back)'
        : 'no recovery point',
    };
  });
}

function poolEvidence(stack: StackTemplate): StoreEvidence[] {
  return resourcesOfType(stack.template, 'AWS::Cognito::UserPool').map(([id, pool]) => ({
    store: resourceName(stack, id),
    kind: 'Cognito user pool',
    classification: classification(pool),
    atRest: 'Cognito service encryption (AWS managed)',
    inTransit: 'TLS only: Cognito endpoints accept HTTPS only',
    retention: `accounts kept until deleted; ${kept(pool)}${pool.Properties?.DeletionProtection === 'ACTIVE' ? '; deletion protection on' : ''}`,
    backup: 'none: Cognito offers no backup, and password verifiers and authenticator secrets cannot be exported',
    rpoRto:
      'accounts cannot be restored; after a loss, administrators invite the users again (their assignments stay in the tables)',
  }));
}

function logGroupEvidence(stack: StackTemplate): StoreEvidence[] {
  return resourcesOfType(stack.template, 'AWS::Logs::LogGroup').map(([id, group]) => ({
    store: resourceName(stack, id),
    kind: 'CloudWatch log group',
    classification: classification(group),
    atRest: group.Properties?.KmsKeyId
      ? `KMS ${readable(stack, group.Properties.KmsKeyId)}`
      : 'CloudWatch Logs service encryption',
    inTransit: 'TLS only (CloudWatch Logs endpoints)',
    retention: `${group.Properties?.RetentionInDays !== undefined ? `${String(group.Properties.RetentionInDays)} days` : 'never expires'}; ${kept(group)}`,
    backup: 'none (operational logs)',
    rpoRto: 'not restorable',
  }));
}

function topicEvidence(stack: StackTemplate): StoreEvidence[] {
  return resourcesOfType(stack.template, 'AWS::SNS::Topic').map(([id, topic]) => ({
    store: resourceName(stack, id),
    kind: 'SNS topic',
    classification: classification(topic),
    atRest: topic.Properties?.KmsMasterKeyId
      ? `SSE-KMS ${readable(stack, topic.Properties.KmsMasterKeyId)}`
      : 'not encrypted at rest',
    inTransit: deniesPlainHttp(stack, 'AWS::SNS::TopicPolicy', 'Topics', id)
      ? 'TLS only: the topic policy denies publishing without TLS'
      : 'not enforced by a topic policy',
    retention: 'messages are delivered, not stored',
    backup: 'not applicable',
    rpoRto: 'not applicable',
  }));
}

function logIntegrity(stack: StackTemplate, root: string): Responsibility[] {
  const items: Responsibility[] = [];
  const destinations = new Set(
    resourcesOfType(stack.template, 'AWS::S3::Bucket').flatMap(([, bucket]) => {
      const target = referencedId(at(bucket.Properties, 'LoggingConfiguration', 'DestinationBucketName'));
      return target ? [target] : [];
    }),
  );
  for (const id of destinations) {
    const bucket = stack.template.Resources[id]!;
    const rules = asList(at(bucket.Properties, 'LifecycleConfiguration', 'Rules') as unknown[]);
    const noncurrent = rules
      .map((rule) => at(rule, 'NoncurrentVersionExpiration', 'NoncurrentDays'))
      .find((days) => days !== undefined);
    const expiry = rules.map((rule) => at(rule, 'ExpirationInDays')).find((days) => days !== undefined);
    const locked = bucket.Properties?.ObjectLockEnabled === true;
    items.push({
      topic: `Access logs (${resourceName(stack, id)})`,
      stack: `Access logs kept ${expiry !== undefined ? `${String(expiry)} days` : 'until deleted'}; versioning ${at(bucket.Properties, 'VersioningConfiguration', 'Status') === 'Enabled' ? 'on' : 'off'}${noncurrent !== undefined ? `, an overwritten or deleted log object stays recoverable for ${String(noncurrent)} day(s) only` : ''}; Object Lock ${locked ? 'on' : 'off'}, so a principal of the account allowed to delete objects can remove logs. The bucket logs nothing about itself: cdk-nag treats a bucket that is the destination of other buckets' access logs as compliant with AwsSolutions-S1 / NIST.800.53.R5-S3BucketLoggingEnabled (logging it into itself would loop).`,
      account:
        'For tamper-evident logs, an organization or account CloudTrail trail with S3 data events on this bucket and log file validation, delivered to a log archive account (or Object Lock on a copy there).',
    });
  }
  const trails = resourcesOfType(stack.template, 'AWS::CloudTrail::Trail');
  items.push({
    topic: 'AWS API activity (CloudTrail)',
    stack:
      trails.length > 0
        ? `Trail(s) in this stack: ${trails.map(([id, trail]) => `${resourceName(stack, id)} (log file validation ${trail.Properties?.EnableLogFileValidation === true ? 'on' : 'off'})`).join(', ')}.`
        : 'No trail: the stack records no AWS API activity of its own (administrator calls to Cognito, IAM and DynamoDB changes, console sign-ins).',
    account:
      'An organization trail (or a multi-Region account trail) with log file validation, delivered to a separate log archive account. `npm run doctor` checks that the account has a trail that is logging.',
  });
  const groups = resourcesOfType(stack.template, 'AWS::Logs::LogGroup');
  if (groups.length > 0) {
    const days = [
      ...new Set(
        groups.map(([, group]) =>
          group.Properties?.RetentionInDays !== undefined
            ? `${String(group.Properties.RetentionInDays)} days`
            : 'never expires',
        ),
      ),
    ];
    items.push({
      topic: 'Function and API logs (CloudWatch Logs)',
      stack: `${groups.length} log group(s), retention ${days.join(', ')}; who may write to each is in the IAM matrix.`,
      account:
        "Export or subscription to a log archive account where logs must outlive the retention or be kept from the account's administrators.",
    });
  }
  const trail = auditTrailIntegrity(stack, root);
  if (trail) items.push(trail);
  return items;
}

/** The findings Security Hub and Prowler raise on the pool and the function URLs, each answered from the settings. */
function findingAnswers(stack: StackTemplate): FindingAnswer[] {
  const answers: FindingAnswer[] = [];
  for (const [id, pool] of resourcesOfType(stack.template, 'AWS::Cognito::UserPool')) {
    const s = signInSettingsOf(pool);
    const name = resourceName(stack, id);
    if (!s.threatProtection) {
      answers.push({
        finding: 'Cognito threat protection off',
        raisedBy:
          'Security Hub Cognito.1; Prowler cognito_user_pool_advanced_security_enabled; cdk-nag AwsSolutions-COG8',
        resources: name,
        answer: threatProtectionReason(s),
        stricterChoice:
          'threatProtection = true (Plus feature plan, full-function mode; charged per monthly active user)',
      });
    }
    if (s.selfSignUp) {
      answers.push({
        finding: 'Self sign-up on',
        raisedBy: 'Prowler cognito_user_pool_self_registration_disabled',
        resources: name,
        answer: `${signUpStatement(s)} The product's sign-up page is part of the specified user portal; a new account sees no dashboard until an administrator assigns one. ${mfaStatement(s)}`,
        stricterChoice:
          'selfSignUp = false (accounts by invitation only; the sign-up page then has no pool to sign up to)',
      });
    }
    if (s.passwordMinLength < 14) {
      answers.push({
        finding: `Passwords of ${s.passwordMinLength} characters (checks ask for 14)`,
        raisedBy: 'Prowler cognito_user_pool_password_policy_minimum_length_14',
        resources: name,
        answer: `${passwordStatement(s)} ${s.passwordMinLength === 8 ? 'Eight characters is the specified product policy; ' : ''}${s.mfa === 'ON' ? 'a password alone never signs in: an authenticator code is required as well.' : ''}`,
        stricterChoice: 'passwordMinLength = 14 (any length from 8 to 99)',
      });
    }
  }
  const publicUrls = resourcesOfType(stack.template, 'AWS::Lambda::Url').filter(
    ([, url]) => url.Properties?.AuthType === 'NONE',
  );
  if (publicUrls.length > 0) {
    const origins = [
      ...new Set(publicUrls.flatMap(([, url]) => readableList(stack, at(url.Properties, 'Cors', 'AllowOrigins')))),
    ];
    answers.push({
      finding: `Public function URLs (auth type NONE): ${publicUrls.length}`,
      raisedBy:
        'Security Hub Lambda.1; Prowler awslambda_function_url_public, awslambda_function_not_publicly_accessible; cdk-nag NIST.800.53.R5-LambdaFunctionPublicAccessProhibited',
      resources: publicUrls.map(([id]) => resourceName(stack, id)).join(', '),
      answer: `The browser calls these URLs with the user's Cognito access token as a bearer token; IAM authorization (AWS_IAM) would need AWS credentials in the browser, which the design avoids (there is no identity pool). Every handler verifies the token (signature, expiry, app client) and the caller's rights before doing anything; CORS admits only ${origins.join(', ') || 'no origin'}.`,
      stricterChoice:
        'none: IAM-authorized URLs would need an identity pool handing AWS credentials to browsers, a wider exposure than a verified bearer token',
    });
  }
  return answers;
}

const RESTORE_STEPS = [
  'Choose the time to restore to (before the damage) within the last 35 days; the console and `aws dynamodb describe-continuous-backups --table-name <table>` show the earliest and latest restorable times.',
  '`aws dynamodb restore-table-to-point-in-time --source-table-name <table> --target-table-name <table>-restored --restore-date-time <time>` (a restore always creates a new table).',
  'Wait until the new table is ACTIVE (`aws dynamodb wait table-exists --table-name <table>-restored`); check its item count and a few known items.',
  "Copy the items back into the stack's table (for example a scan of the restored table written with batch writes), or copy only the items that were damaged; the functions keep using the stack's table name.",
  "The restored table does not carry the original's TTL, point-in-time recovery, tags, alarms or IAM grants: delete it once the copy is checked.",
  "Record the restore (time, reason, who) in the change log; the administrators' activity trail does not record direct table operations.",
];

export function auditorEvidence(stack: StackTemplate, root: string): AuditorEvidence {
  return {
    stores: [
      ...tableEvidence(stack),
      ...bucketEvidence(stack),
      ...poolEvidence(stack),
      ...topicEvidence(stack),
      ...logGroupEvidence(stack),
    ],
    logIntegrity: logIntegrity(stack, root),
    restoreSteps: resourcesOfType(stack.template, 'AWS::DynamoDB::Table').length > 0 ? RESTORE_STEPS : [],
    findings: findingAnswers(stack),
  };
}

import type { Statement } from './policy-statement.ts';
import {
  asList,
  isRecord,
  readable,
  readableList,
  referencedId,
  resourceName,
  resourcesOfType,
  type StackTemplate,
} from './template.ts';

/**
 * Permissions exercised by AWS services and by aws-cdk-lib's own handlers rather than by the
 * project's code: Lambda writing a function's logs (and traces, under active tracing), AppSync invoking its data
 * source,
 * CloudFront reading the bucket, a function URL or a Cognito trigger invoking a function,
 * and the deployment helper uploading the site. Each names where in the template it comes from.
 */

export interface PlatformUse {
  readonly actions: readonly string[];
  readonly by: string;
}

const LOG_WRITES = ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'];
/** What the Lambda service sends with the function's role under active tracing. */
const TRACE_WRITES = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];

/**
 * What aws-cdk-lib's bucket deployment handler calls (`aws s3 sync`/`cp` and boto3's
 * CloudFront client in aws-cdk-lib/custom-resource-handlers/dist/aws-s3-deployment/bucket-deployment-handler/index.py).
 */
const BUCKET_DEPLOYMENT: PlatformUse = {
  actions: [
    's3:GetObject',
    's3:ListBucket',
    's3:PutObject',
    's3:DeleteObject',
    's3:AbortMultipartUpload',
    'cloudfront:CreateInvalidation',
    'cloudfront:GetInvalidation',
  ],
  by: 'aws-cdk-lib bucket-deployment-handler/index.py (aws s3 sync, cloudfront create_invalidation)',
};

const name = (stack: StackTemplate, id: string) => resourceName(stack, id);

function referencesTo(value: unknown, id: string): boolean {
  if (Array.isArray(value)) return value.some((item) => referencesTo(item, id));
  if (!isRecord(value)) return false;
  return referencedId(value) === id || Object.values(value).some((item) => referencesTo(item, id));
}

function roleUses(stack: StackTemplate, referrers: readonly string[]): PlatformUse[] {
  const { Resources } = stack.template;
  const uses: PlatformUse[] = [];
  for (const id of referrers) {
    const resource = Resources[id]!;
    if (resource.Type === 'AWS::Lambda::Function') {
      uses.push({ actions: LOG_WRITES, by: `Lambda service: log stream of ${name(stack, id)}` });
      const tracing = resource.Properties?.TracingConfig;
      if (isRecord(tracing) && tracing.Mode === 'Active')
        uses.push({ actions: TRACE_WRITES, by: `Lambda service: active X-Ray tracing of ${name(stack, id)}` });
      const deploysSite = Object.values(Resources).some(
        (other) => other.Type === 'Custom::CDKBucketDeployment' && referencedId(other.Properties?.ServiceToken) === id,
      );
      if (deploysSite) uses.push(BUCKET_DEPLOYMENT);
    }
    if (resource.Type === 'AWS::AppSync::DataSource') {
      const resolvers = resourcesOfType(stack.template, 'AWS::AppSync::Resolver')
        .filter(
          ([, resolver]) =>
            readable(stack, resolver.Properties?.DataSourceName) === readable(stack, resource.Properties?.Name) ||
            referencesTo(resolver.Properties?.DataSourceName, id),
        )
        .map(
          ([, resolver]) =>
            `${readable(stack, resolver.Properties?.TypeName)}.${readable(stack, resolver.Properties?.FieldName)}`,
        );
      uses.push({
        actions: ['lambda:InvokeFunction'],
        by: `AppSync data source ${name(stack, id)}${resolvers.length > 0 ? ` (resolvers ${resolvers.join(', ')})` : ''}`,
      });
    }
    if (resource.Type === 'AWS::AppSync::GraphQLApi')
      uses.push({ actions: LOG_WRITES, by: `AppSync request logging of ${name(stack, id)}` });
  }
  return uses;
}

/**
 * A role QuickSight assumes to read an S3 data source (S3Parameters.RoleArn, "Running queries
 * as an IAM role in Amazon QuickSight"): QuickSight finds the bucket and reads the manifest and
 * the files it names, with the actions of the user guide's example policy for S3 ("Attaching
 * additional policies"). The functions that hand the role over carry its ARN in their environment.
 */
const S3_DATA_SOURCE_READS = ['s3:ListBucket', 's3:GetBucketLocation', 's3:GetObject', 's3:GetObjectVersion'];

function assumedByService(stack: StackTemplate, roleId: string): PlatformUse[] {
  const role = stack.template.Resources[roleId]!;
  const trust = role.Properties?.AssumeRolePolicyDocument;
  const services = isRecord(trust)
    ? asList(trust.Statement as Record<string, unknown>[]).flatMap((statement) =>
        isRecord(statement.Principal) ? readableList(stack, statement.Principal.Service) : [],
      )
    : [];
  if (!services.includes('quicksight.amazonaws.com')) return [];
  const handedOverBy = resourcesOfType(stack.template, 'AWS::Lambda::Function')
    .filter(([, fn]) => referencesTo(fn.Properties?.Environment, roleId))
    .map(([id]) => name(stack, id));
  return [
    {
      actions: S3_DATA_SOURCE_READS,
      by: `QuickSight reading an S3 data source's manifest and files with this role${handedOverBy.length > 0 ? ` (handed over by ${handedOverBy.join(', ')})` : ''}`,
    },
  ];
}

function permissionUses(stack: StackTemplate, id: string): PlatformUse[] {
  const p = stack.template.Resources[id]!.Properties ?? {};
  const functionId = referencedId(p.FunctionName);
  const action = [String(p.Action)];
  if (p.FunctionUrlAuthType !== undefined || p.InvokedViaFunctionUrl !== undefined) {
    return resourcesOfType(stack.template, 'AWS::Lambda::Url')
      .filter(([, url]) => functionId !== undefined && referencedId(url.Properties?.TargetFunctionArn) === functionId)
      .map(([urlId, url]) => ({
        actions: action,
        by: `function URL ${name(stack, urlId)} (auth type ${readable(stack, url.Properties?.AuthType)}; the handler checks the bearer token)`,
      }));
  }
  if (p.Principal === 'cognito-idp.amazonaws.com') {
    return resourcesOfType(stack.template, 'AWS::Cognito::UserPool').flatMap(([poolId, pool]) => {
      const triggers = isRecord(pool.Properties?.LambdaConfig) ? Object.entries(pool.Properties.LambdaConfig) : [];
      return triggers
        .filter(
          ([, target]) =>
            functionId !== undefined &&
            (referencedId(target) === functionId ||
              (isRecord(target) && referencedId(target.LambdaArn) === functionId)),
        )
        .map(([trigger]) => ({ actions: action, by: `${trigger} trigger of user pool ${name(stack, poolId)}` }));
    });
  }
  return [{ actions: action, by: `${readable(stack, p.Principal)} (${readable(stack, p.SourceArn) || 'any source'})` }];
}

const readablePrincipalsText = (stack: StackTemplate, statement: Statement): string =>
  isRecord(statement.Principal)
    ? Object.values(statement.Principal)
        .flatMap((v) => readableList(stack, v))
        .join(', ')
    : readable(stack, statement.Principal) || 'the principal named in the statement';

function bucketPolicyUses(stack: StackTemplate, policyId: string, statement: Statement): PlatformUse[] {
  const actions = readableList(stack, statement.Action);
  if (statement.Effect === 'Deny') return [{ actions, by: 'enforced on every request to the bucket (deny rule)' }];
  const principal = isRecord(statement.Principal) ? readableList(stack, statement.Principal.Service) : [];
  const bucketId = referencedId(stack.template.Resources[policyId]!.Properties?.Bucket);
  if (principal.includes('cloudfront.amazonaws.com') && bucketId) {
    return resourcesOfType(stack.template, 'AWS::CloudFront::Distribution')
      .filter(([, distribution]) => referencesTo(distribution.Properties, bucketId))
      .map(([distributionId]) => ({
        actions,
        by: `distribution ${name(stack, distributionId)} through origin access control`,
      }));
  }
  if (principal.includes('logging.s3.amazonaws.com')) {
    const sources = resourcesOfType(stack.template, 'AWS::S3::Bucket')
      .filter(([, bucket]) => bucketId !== undefined && referencesTo(bucket.Properties?.LoggingConfiguration, bucketId))
      .map(([sourceId]) => name(stack, sourceId));
    return [{ actions, by: `S3 server access logging of ${sources.join(', ') || 'a bucket'}` }];
  }
  return [{ actions, by: asList(principal).join(', ') || 'the principal named in the statement' }];
}

/**
 * Key and topic policy statements: who exercises each (the account's own IAM policies, CloudWatch alarms, everyone
 * for a deny).
 */
function keyOrTopicUses(stack: StackTemplate, id: string, statement: Statement): PlatformUse[] {
  const actions = readableList(stack, statement.Action);
  if (statement.Effect === 'Deny')
    return [{ actions, by: `enforced on every request to ${name(stack, id)} (deny rule)` }];
  const resource = stack.template.Resources[id]!;
  const services = isRecord(statement.Principal) ? readableList(stack, statement.Principal.Service) : [];
  const accounts = isRecord(statement.Principal) ? readableList(stack, statement.Principal.AWS) : [];
  if (resource.Type === 'AWS::KMS::Key') {
    if (accounts.some((a) => a.endsWith(':root'))) {
      return [
        {
          actions,
          by: `the account's own IAM policies (key policy default: administration and use of the key go through IAM policies in the account)`,
        },
      ];
    }
    const topics = resourcesOfType(stack.template, 'AWS::SNS::Topic').filter(
      ([, topic]) => referencedId(topic.Properties?.KmsMasterKeyId) === id,
    );
    if (services.includes('cloudwatch.amazonaws.com') && topics.length > 0) {
      const alarms = resourcesOfType(stack.template, 'AWS::CloudWatch::Alarm').filter(([, alarm]) =>
        topics.some(([topicId]) => referencesTo(alarm.Properties?.AlarmActions, topicId)),
      );
      return [
        {
          actions,
          by: `CloudWatch encrypting the notifications of ${alarms.length} alarm(s) for topic ${topics.map(([t]) => name(stack, t)).join(', ')}`,
        },
      ];
    }
  }
  if (resource.Type === 'AWS::SNS::TopicPolicy' && services.includes('cloudwatch.amazonaws.com')) {
    const topics = asList(resource.Properties?.Topics)
      .map(referencedId)
      .filter((t): t is string => t !== undefined);
    const alarms = resourcesOfType(stack.template, 'AWS::CloudWatch::Alarm').filter(([, alarm]) =>
      topics.some((topicId) => referencesTo(alarm.Properties?.AlarmActions, topicId)),
    );
    return [
      {
        actions,
        by: `${alarms.length} CloudWatch alarm(s) publishing to ${topics.map((t) => name(stack, t)).join(', ')}`,
      },
    ];
  }
  return [{ actions, by: [...services, ...accounts].join(', ') || 'the principal named in the statement' }];
}

/**
 * Known platform uses of a role (`referrers`: the resources that name it), a Lambda
 * permission, or a bucket policy statement.
 */
export function platformUses(
  stack: StackTemplate,
  id: string,
  referrers: readonly string[],
  statement?: Statement,
): PlatformUse[] {
  const type = stack.template.Resources[id]?.Type;
  if (type === 'AWS::IAM::Role') return [...roleUses(stack, referrers), ...assumedByService(stack, id)];
  if (type === 'AWS::Lambda::Permission') return permissionUses(stack, id);
  if (type === 'AWS::S3::BucketPolicy' && statement) return bucketPolicyUses(stack, id, statement);
  if ((type === 'AWS::KMS::Key' || type === 'AWS::SNS::TopicPolicy') && statement)
    return keyOrTopicUses(stack, id, statement);
  if (statement)
    return [
      {
        actions: readableList(stack, statement.Action),
        by:
          statement.Effect === 'Deny'
            ? 'enforced on every request (deny rule)'
            : readablePrincipalsText(stack, statement),
      },
    ];
  return [];
}

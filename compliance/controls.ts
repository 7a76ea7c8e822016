/**
 * NIST 800-53 control IDs as cdk-nag's rules state them at the end of their text, e.g.
 * "... - (Control IDs: AC-3, AC-4(21), SC-7b)." The IDs are taken from the rule, not from
 * a table kept here, so they follow the pack's version.
 */

const FAMILIES: Readonly<Record<string, string>> = {
  AC: 'Access Control',
  AT: 'Awareness and Training',
  AU: 'Audit and Accountability',
  CA: 'Assessment, Authorization, and Monitoring',
  CM: 'Configuration Management',
  CP: 'Contingency Planning',
  IA: 'Identification and Authentication',
  IR: 'Incident Response',
  MA: 'Maintenance',
  MP: 'Media Protection',
  PE: 'Physical and Environmental Protection',
  PL: 'Planning',
  PM: 'Program Management',
  PS: 'Personnel Security',
  PT: 'PII Processing and Transparency',
  RA: 'Risk Assessment',
  SA: 'System and Services Acquisition',
  SC: 'System and Communications Protection',
  SI: 'System and Information Integrity',
  SR: 'Supply Chain Risk Management',
};

/** The control IDs a rule's text names, in order, without repeats. */
export function controlIds(ruleText: string): string[] {
  const start = ruleText.search(/\(Control IDs?:/);
  if (start < 0) return [];
  const list = ruleText.slice(ruleText.indexOf(':', start) + 1, ruleText.lastIndexOf(')'));
  return [
    ...new Set(
      list
        .split(',')
        .map((id) => id.trim())
        .filter((id) => /^[A-Z]{2}-\d/.test(id)),
    ),
  ];
}

/** The family of a control ID (`AC-4(21)` -> `AC`), with its name. */
export function familyOf(controlId: string): { code: string; name: string } {
  const code = controlId.split('-')[0] ?? controlId;
  return { code, name: FAMILIES[code] ?? 'Unknown family' };
}

/**
 * The AWS Security Hub control and Prowler check that test what a cdk-nag rule tests, where
 * one exists, so findings from the account's own scanners can be matched to the rule's result here.
 */
const EQUIVALENTS: Readonly<Record<string, { readonly securityHub?: string; readonly prowler?: string }>> = {
  'AwsSolutions-CFR2': { securityHub: 'CloudFront.6', prowler: 'cloudfront_distributions_using_waf' },
  'AwsSolutions-CFR3': { securityHub: 'CloudFront.5', prowler: 'cloudfront_distributions_logging_enabled' },
  'AwsSolutions-CFR5': {
    securityHub: 'CloudFront.10',
    prowler: 'cloudfront_distributions_using_deprecated_ssl_protocols',
  },
  'AwsSolutions-CFR7': { securityHub: 'CloudFront.13' },
  'AwsSolutions-COG1': { prowler: 'cognito_user_pool_password_policy_minimum_length_14' },
  'AwsSolutions-COG2': { prowler: 'cognito_user_pool_mfa_enabled' },
  'AwsSolutions-COG8': { securityHub: 'Cognito.1', prowler: 'cognito_user_pool_advanced_security_enabled' },
  'AwsSolutions-DDB3': { securityHub: 'DynamoDB.2', prowler: 'dynamodb_tables_pitr_enabled' },
  'NIST.800.53.R5-DynamoDBPITREnabled': { securityHub: 'DynamoDB.2', prowler: 'dynamodb_tables_pitr_enabled' },
  'NIST.800.53.R5-DynamoDBInBackupPlan': {
    securityHub: 'DynamoDB.4',
    prowler: 'dynamodb_table_protected_by_backup_plan',
  },
  'NIST.800.53.R5-DynamoDBAutoScalingEnabled': { securityHub: 'DynamoDB.1' },
  'AwsSolutions-KMS5': { securityHub: 'KMS.4', prowler: 'kms_cmk_rotation_enabled' },
  'NIST.800.53.R5-KMSBackingKeyRotationEnabled': { securityHub: 'KMS.4', prowler: 'kms_cmk_rotation_enabled' },
  'AwsSolutions-L1': { securityHub: 'Lambda.2', prowler: 'awslambda_function_using_supported_runtimes' },
  'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited': {
    securityHub: 'Lambda.1',
    prowler: 'awslambda_function_url_public',
  },
  'NIST.800.53.R5-LambdaInsideVPC': { securityHub: 'Lambda.3' },
  'AwsSolutions-S1': { securityHub: 'S3.9', prowler: 's3_bucket_server_access_logging_enabled' },
  'NIST.800.53.R5-S3BucketLoggingEnabled': { securityHub: 'S3.9', prowler: 's3_bucket_server_access_logging_enabled' },
  'AwsSolutions-S2': { securityHub: 'S3.8', prowler: 's3_bucket_level_public_access_block' },
  'NIST.800.53.R5-S3BucketLevelPublicAccessProhibited': {
    securityHub: 'S3.8',
    prowler: 's3_bucket_level_public_access_block',
  },
  'NIST.800.53.R5-S3BucketPublicReadProhibited': { securityHub: 'S3.2', prowler: 's3_bucket_public_access' },
  'NIST.800.53.R5-S3BucketPublicWriteProhibited': { securityHub: 'S3.3', prowler: 's3_bucket_public_write_acl' },
  'AwsSolutions-S10': { securityHub: 'S3.5', prowler: 's3_bucket_secure_transport_policy' },
  'NIST.800.53.R5-S3BucketSSLRequestsOnly': { securityHub: 'S3.5', prowler: 's3_bucket_secure_transport_policy' },
  'NIST.800.53.R5-S3BucketVersioningEnabled': { securityHub: 'S3.14', prowler: 's3_bucket_object_versioning' },
  'NIST.800.53.R5-S3BucketReplicationEnabled': { securityHub: 'S3.7', prowler: 's3_bucket_cross_region_replication' },
  'NIST.800.53.R5-S3DefaultEncryptionKMS': { securityHub: 'S3.17', prowler: 's3_bucket_kms_encryption' },
  'AwsSolutions-SNS3': { securityHub: 'SNS.1', prowler: 'sns_topics_kms_encryption_at_rest_enabled' },
  'NIST.800.53.R5-SNSEncryptedKMS': { securityHub: 'SNS.1', prowler: 'sns_topics_kms_encryption_at_rest_enabled' },
  'NIST.800.53.R5-CloudWatchAlarmAction': { securityHub: 'CloudWatch.15' },
  'NIST.800.53.R5-CloudWatchLogGroupEncrypted': { prowler: 'cloudwatch_log_group_kms_encryption_enabled' },
  'NIST.800.53.R5-CloudWatchLogGroupRetentionPeriod': {
    securityHub: 'CloudWatch.16',
    prowler: 'cloudwatch_log_group_retention_policy_specific_days_enabled',
  },
  'NIST.800.53.R5-IAMPolicyNoStatementsWithAdminAccess': {
    securityHub: 'IAM.1',
    prowler: 'iam_customer_attached_policy_no_administrative_privileges',
  },
  'NIST.800.53.R5-IAMPolicyNoStatementsWithFullAccess': { securityHub: 'IAM.21' },
  'NIST.800.53.R5-IAMUserNoPolicies': { securityHub: 'IAM.2', prowler: 'iam_policy_attached_only_to_group_or_roles' },
  'AwsSolutions-ASC3': { securityHub: 'AppSync.2' },
};

/** `Security Hub S3.5; Prowler s3_bucket_secure_transport_policy`, or undefined when neither tool has an equivalent. */
export function equivalentChecks(rule: string): string | undefined {
  const match = EQUIVALENTS[rule];
  if (!match) return undefined;
  return [match.securityHub && `Security Hub ${match.securityHub}`, match.prowler && `Prowler ${match.prowler}`]
    .filter(Boolean)
    .join('; ');
}

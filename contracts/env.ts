/**
 * Environment variables the handlers read. The CDK functions construct sets them in AWS;
 * local mode sets them for the same handler code. Endpoint overrides are set only in
 * local mode; in AWS the SDK's regional endpoints are used.
 */
export const ENV = {
  region: 'AWS_REGION',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  /** Local mode only: the identity provider's endpoint. */
  cognitoEndpoint: 'COGNITO_ENDPOINT',
  /** Local mode only: the pool's JWKS as JSON, handed to the verifier with cacheJwks. */
  cognitoJwks: 'COGNITO_JWKS',
  viewsTable: 'VIEWS_TABLE',
  dashboardsTable: 'DASHBOARDS_TABLE',
  stateTable: 'STATE_TABLE',
  auditTable: 'AUDIT_TABLE',
  usageTable: 'USAGE_TABLE',
  /** Days a dashboard view event and its aggregates are kept (DynamoDB TTL). */
  usageRetentionDays: 'USAGE_RETENTION_DAYS',
  /** Local mode only. */
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  quicksightAccountId: 'QUICKSIGHT_ACCOUNT_ID',
  quicksightNamespace: 'QUICKSIGHT_NAMESPACE',
  /** Region of the QuickSight identity (user management) calls; defaults to AWS_REGION. */
  quicksightIdentityRegion: 'QUICKSIGHT_IDENTITY_REGION',
  /** Local mode only. */
  quicksightEndpoint: 'QUICKSIGHT_ENDPOINT',
  /** Private bucket holding the row-level-security rules file and its manifest. */
  companyRulesBucket: 'COMPANY_RULES_BUCKET',
  /** QuickSight ids of the rules data source and dataset the portal keeps current. */
  companyRulesDataSourceId: 'COMPANY_RULES_DATA_SOURCE_ID',
  companyRulesDataSetId: 'COMPANY_RULES_DATA_SET_ID',
  /** Role QuickSight assumes to read the rules file (S3Parameters.RoleArn). */
  companyRulesRoleArn: 'COMPANY_RULES_ROLE_ARN',
  /** QuickSight user or group ARN granted the rules data source and dataset (quicksightAuthorArn); optional. */
  companyRulesAuthorArn: 'COMPANY_RULES_AUTHOR_ARN',
  /** Prefix of the QuickSight group names the portal owns (one group per company). */
  companyGroupPrefix: 'COMPANY_GROUP_PREFIX',
  /** Local mode only. */
  s3Endpoint: 'S3_ENDPOINT',
  embedSessionMinutes: 'EMBED_SESSION_MINUTES',
  /** 'false' turns off QuickSight state persistence and bookmarks in the embedded dashboard. */
  /** Comma-separated dashboardFeatures the embed function asks QuickSight for (contracts/dashboard-features.ts). */
  embedDashboardFeatures: 'EMBED_DASHBOARD_FEATURES',
  /** Comma-separated site origins: CORS allow-list and the embed AllowedDomains. */
  allowedOrigins: 'ALLOWED_ORIGINS',
  /** Local mode only. */
  sesEndpoint: 'SES_ENDPOINT',
  /**
   * Local mode only: the self-signed certificate (PEM) local QuickSight serves snapshot files
   * with, trusted for their download (in AWS the file's URL is S3's, with a public certificate).
   */
  localCaCertificate: 'LOCAL_CA_CERTIFICATE',
  supportFromAddress: 'SUPPORT_FROM_ADDRESS',
  supportToAddress: 'SUPPORT_TO_ADDRESS',
  /** The user pool's MFA mode (ON, OPTIONAL or OFF), as the CDK app configures it. */
  mfaConfiguration: 'MFA_CONFIGURATION',
  /** 'true' when the user pool tracks devices (rememberDevices): admin resets then forget them. */
  rememberDevices: 'REMEMBER_DEVICES',
  /** Minutes after the sign-in (`auth_time`) at which every token of that session is refused. */
  absoluteSessionMinutes: 'ABSOLUTE_SESSION_MINUTES',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
} as const;

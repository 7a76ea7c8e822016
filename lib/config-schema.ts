import { z } from 'zod';
import { SESSION_DEFAULTS } from '#contracts/config.ts';
import { parseAuthorArn } from '#contracts/company-rules.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import {
  blankAsUnset,
  dashboardFeatureList,
  email,
  flag,
  numberFromText,
  optionalFlag,
  optionalText,
  originList,
  valid,
  wholeNumber,
} from './config-values.ts';
import { PLACEHOLDER_SENDER, PLACEHOLDER_SUPPORT_RECIPIENT } from './config-placeholders.ts';

/**
 * The configuration schema: each context key, what it accepts and its default, and the checks
 * across keys (lib/config.ts reads the context and parses it with this).
 */

const TOKEN_DEFAULTS = USER_POOL_CLIENT.defaultTokenValidity;

/** CloudWatch Logs accepts only these retention periods (days). */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const REGION = /^[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d$/;
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;
const WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[0-9a-f-]{36}$/;
const COGNITO_DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The longest passkey relying party id the user pool takes (CDK's check of `passkeyRelyingPartyId`). */
const PASSKEY_RELYING_PARTY_MAX_LENGTH = 63;
/** Short enough to leave room in the names it becomes part of (lib/resource-names.ts). */
export const ENVIRONMENT_NAME = /^[a-z](?:[a-z0-9-]{0,13}[a-z0-9])?$/;

export const configSchema = z
  .object({
    productName: z.preprocess(
      blankAsUnset,
      z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9 -]{0,39}$/, {
          message: 'must start with a letter and hold at most 40 letters, digits, spaces or hyphens',
        })
        .default('TVIQ'),
    ),
    environment: optionalText(
      z.string().regex(ENVIRONMENT_NAME, {
        message:
          'must be 1-15 lowercase letters, digits or inner hyphens, starting with a letter, such as dev, staging or prod',
      }),
    ),
    region: z.preprocess(
      blankAsUnset,
      z.string().regex(REGION, { message: 'must be an AWS region code such as us-east-2' }).default('us-east-2'),
    ),
    quicksightAccountId: optionalText(z.string().regex(/^\d{12}$/, { message: 'must be a 12-digit AWS account id' })),
    quicksightNamespace: z.preprocess(
      blankAsUnset,
      z
        .string()
        .regex(/^[a-zA-Z0-9._-]{1,64}$/, {
          message: 'must be a QuickSight namespace name (letters, digits, . _ -; at most 64)',
        })
        .default('default'),
    ),
    quicksightIdentityRegion: optionalText(
      z.string().regex(REGION, { message: 'must be an AWS region code such as us-east-1' }),
    ),
    /**
     * The QuickSight user or group (an author) granted the row-level-security rules data source
     * and dataset, so that it can choose the rules in the console (docs/deploy.md).
     */
    quicksightAuthorArn: optionalText(
      z.string().refine((arn) => parseAuthorArn(arn) !== undefined, {
        message:
          'must be the ARN of a QuickSight user or group, such as arn:aws:quicksight:us-east-1:111122223333:user/default/analytics-author',
      }),
    ),
    sesSenderAddress: z.preprocess(blankAsUnset, email.default(PLACEHOLDER_SENDER)),
    sesIdentity: optionalText(z.string().transform((identity) => identity.toLowerCase())),
    supportRecipientAddress: z.preprocess(blankAsUnset, email.default(PLACEHOLDER_SUPPORT_RECIPIENT)),
    domainName: optionalText(
      z
        .string()
        .transform((name) => name.toLowerCase())
        .pipe(z.string().regex(HOST_NAME, { message: 'must be a host name such as portal.example.com' })),
    ),
    certificateArn: optionalText(
      z.string().regex(CERTIFICATE_ARN, {
        message: 'must be the ARN of an ACM certificate in us-east-1 (CloudFront reads certificates only from there)',
      }),
    ),
    webAclArn: optionalText(
      z.string().regex(WEB_ACL_ARN, {
        message: 'must be the ARN of a WAF web ACL with CLOUDFRONT scope (created in us-east-1)',
      }),
    ),
    cognitoDomainPrefix: optionalText(
      z
        .string()
        .regex(COGNITO_DOMAIN_PREFIX, { message: 'must be 1-63 lowercase letters, digits or inner hyphens' })
        .refine((prefix) => !/aws|amazon|cognito/.test(prefix), {
          message: 'must not contain the reserved words aws, amazon or cognito',
        }),
    ),
    idleTimeoutMinutes: z.preprocess(
      numberFromText,
      wholeNumber(5, 1440, 'the idle sign-out warns a minute ahead; at most a day').default(
        SESSION_DEFAULTS.idleTimeoutMinutes,
      ),
    ),
    absoluteSessionMinutes: z.preprocess(
      numberFromText,
      wholeNumber(15, 43_200, 'from the shortest embedded dashboard session to 30 days').default(
        SESSION_DEFAULTS.absoluteSessionMinutes,
      ),
    ),
    /**
     * Deprecated: dashboardFeatures says it. Still read: false takes StatePersistence and Bookmarks
     * out of dashboardFeatures (loadConfig), with a warning at synth.
     */
    dashboardStatePersistence: optionalFlag,
    /**
     * Features of embedded dashboards, exactly these, by RegisteredUserDashboardFeatureConfigurations
     * member (docs/configuration.md); [] is none.
     */
    dashboardFeatures: dashboardFeatureList,
    embedSessionMinutes: z.preprocess(
      numberFromText,
      wholeNumber(15, 600, 'QuickSight embed sessions last 15 to 600 minutes').default(600),
    ),
    /** Days dashboard view events and the Insights aggregates are kept (DynamoDB TTL). */
    usageRetentionDays: z.preprocess(numberFromText, wholeNumber(1, 3650, 'from a day to ten years').default(400)),
    accessTokenMinutes: z.preprocess(
      numberFromText,
      z
        .literal(TOKEN_DEFAULTS.accessTokenMinutes, {
          message: `must be ${TOKEN_DEFAULTS.accessTokenMinutes} (a token that can change the authenticator must end within the 5 minutes after its sign-in)`,
        })
        .default(TOKEN_DEFAULTS.accessTokenMinutes),
    ),
    idTokenMinutes: z.preprocess(
      numberFromText,
      wholeNumber(5, 1440, 'Cognito allows 5 minutes to 1 day').default(TOKEN_DEFAULTS.idTokenMinutes),
    ),
    refreshTokenDays: z.preprocess(
      numberFromText,
      wholeNumber(1, 3650, 'Cognito allows up to 10 years').default(TOKEN_DEFAULTS.refreshTokenDays),
    ),
    /** Whether visitors may create accounts at /signup (off: accounts only by invitation). */
    selfSignUp: flag(true),
    /**
     * Cognito threat protection (adaptive authentication, compromised-credential detection) in
     * full-function mode: the Plus feature plan, charged per monthly active user.
     */
    threatProtection: flag(false),
    /** Minimum password length of the user pool (the spec's policy is 8; Cognito allows up to 99). */
    passwordMinLength: z.preprocess(
      numberFromText,
      wholeNumber(8, 99, 'the portal requires at least 8 characters; Cognito allows at most 99').default(8),
    ),
    /** Users may have a device remembered after a sign-in with a code; it then skips the code. */
    rememberDevices: flag(false),
    /**
     * Passkeys (WebAuthn) as a first factor beside the password, counting as both factors when
     * the passkey verifies the user (MULTI_FACTOR_WITH_USER_VERIFICATION); the relying party is
     * the site's domain.
     */
    passkeys: flag(true),
    deletionProtection: flag(true),
    logRetentionDays: z.preprocess(
      numberFromText,
      wholeNumber(1, 3653, 'CloudWatch Logs retention')
        .refine((days) => (LOG_RETENTION_DAYS as readonly number[]).includes(days), {
          message: `must be one of the CloudWatch Logs retention periods: ${LOG_RETENTION_DAYS.join(', ')}`,
        })
        .default(365),
    ),
    allowedOrigins: originList,
    marketingSiteUrl: optionalText(z.url({ protocol: /^https$/, message: 'must be an https URL' })),
    /** CloudWatch alarms, their SNS topic and the operations dashboard (lib/operations.ts). */
    operations: flag(true),
    /** Subscribed to the alarm topic; the address confirms the subscription from the email SNS sends. */
    alarmEmail: optionalText(email),
    /** Active X-Ray tracing of every function. */
    tracing: flag(false),
  })
  // Checks across values run only once the values they read are valid themselves, so one
  // mistake yields one message.
  .superRefine(
    (config, ctx) => {
      if (Boolean(config.domainName) !== Boolean(config.certificateArn)) {
        ctx.addIssue({
          code: 'custom',
          path: [config.domainName ? 'certificateArn' : 'domainName'],
          message:
            'domainName and certificateArn go together: give both (a custom domain with its us-east-1 certificate) or neither',
        });
      }
    },
    { when: valid('domainName', 'certificateArn') },
  )
  .superRefine(
    (config, ctx) => {
      const senderDomain = config.sesSenderAddress.split('@')[1];
      if (config.sesIdentity && config.sesIdentity !== config.sesSenderAddress && config.sesIdentity !== senderDomain) {
        ctx.addIssue({
          code: 'custom',
          path: ['sesIdentity'],
          message: `must be the verified SES identity that covers sesSenderAddress: the address itself or its domain (${senderDomain})`,
        });
      }
    },
    { when: valid('sesSenderAddress', 'sesIdentity') },
  )
  .superRefine(
    (config, ctx) => {
      if (config.idleTimeoutMinutes >= config.absoluteSessionMinutes) {
        ctx.addIssue({
          code: 'custom',
          path: ['idleTimeoutMinutes'],
          message: `must be shorter than absoluteSessionMinutes (${config.absoluteSessionMinutes}): a longer idle timeout would never apply`,
        });
      }
    },
    { when: valid('idleTimeoutMinutes', 'absoluteSessionMinutes') },
  )
  .superRefine(
    (config, ctx) => {
      if (config.embedSessionMinutes > config.absoluteSessionMinutes) {
        ctx.addIssue({
          code: 'custom',
          path: ['embedSessionMinutes'],
          message: `is ${config.embedSessionMinutes}, more than absoluteSessionMinutes (${config.absoluteSessionMinutes}): the embedded dashboard session must never outlive the portal session`,
        });
      }
    },
    { when: valid('embedSessionMinutes', 'absoluteSessionMinutes') },
  )
  .superRefine(
    (config, ctx) => {
      if (config.refreshTokenDays * 24 * 60 <= Math.max(config.accessTokenMinutes, config.idTokenMinutes)) {
        ctx.addIssue({
          code: 'custom',
          path: ['refreshTokenDays'],
          message: 'must outlast the access and ID tokens (Cognito rejects a refresh token that expires first)',
        });
      }
    },
    { when: valid('refreshTokenDays', 'accessTokenMinutes', 'idTokenMinutes') },
  )
  .superRefine(
    (config, ctx) => {
      const author = config.quicksightAuthorArn ? parseAuthorArn(config.quicksightAuthorArn) : undefined;
      if (!author) return;
      // QuickSight user and group ARNs carry the identity region and the subscription's account.
      const identityRegion = config.quicksightIdentityRegion ?? config.region;
      if (author.region !== identityRegion) {
        ctx.addIssue({
          code: 'custom',
          path: ['quicksightAuthorArn'],
          message: `names region ${author.region}, but QuickSight users and groups live in the identity region ${identityRegion} (quicksightIdentityRegion, or region)`,
        });
      }
      if (config.quicksightAccountId && author.accountId !== config.quicksightAccountId) {
        ctx.addIssue({
          code: 'custom',
          path: ['quicksightAuthorArn'],
          message: `names account ${author.accountId}, not the QuickSight account ${config.quicksightAccountId} (quicksightAccountId)`,
        });
      }
    },
    { when: valid('quicksightAuthorArn', 'quicksightIdentityRegion', 'region', 'quicksightAccountId') },
  )
  .superRefine(
    (config, ctx) => {
      if (config.passkeys && config.domainName && config.domainName.length > PASSKEY_RELYING_PARTY_MAX_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: ['domainName'],
          message: `has more than ${PASSKEY_RELYING_PARTY_MAX_LENGTH} characters, too long for the passkey relying party id (WebAuthnRelyingPartyID), which is the site's domain; use a shorter domain or set passkeys to false`,
        });
      }
    },
    { when: valid('passkeys', 'domainName') },
  )
  .superRefine(
    (config, ctx) => {
      if (config.alarmEmail && !config.operations) {
        ctx.addIssue({
          code: 'custom',
          path: ['alarmEmail'],
          message:
            'is set while operations is false: there would be no alarms to send; turn operations on or drop alarmEmail',
        });
      }
    },
    { when: valid('alarmEmail', 'operations') },
  );

export type ParsedConfig = z.infer<typeof configSchema>;

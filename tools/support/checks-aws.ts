import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolDomainCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { GetWebACLCommand, WAFV2Client } from '@aws-sdk/client-wafv2';
import { App, Stack } from 'aws-cdk-lib';
import { PortalAuth } from '#lib/auth.ts';
import type { PortalConfig } from '#lib/config.ts';
import { portalStackName } from '#lib/stack-names.ts';
import { describeError, type TargetOptions } from './cli.ts';
import type { CheckResult } from './report.ts';
import { awsClientConfig } from './target.ts';

/** The checks that only an AWS account has: credentials, bootstrap, Cognito domain, certificate, WAF. */

/** CloudFront reads certificates and CLOUDFRONT-scope web ACLs only from us-east-1. */
const GLOBAL_REGION = 'us-east-1';
const BOOTSTRAP_VERSION_PARAMETER = '/cdk-bootstrap/hnb659fds/version';
/** The oldest bootstrap stack the default synthesizer's templates accept (their CheckBootstrapVersion rule). */
const MIN_BOOTSTRAP_VERSION = 6;

const errorName = (error: unknown) => (error instanceof Error ? error.name : '');

export interface Caller {
  readonly account: string;
  readonly arn: string;
}

export async function credentials(
  options: TargetOptions,
  region: string,
): Promise<{ result: CheckResult; caller?: Caller }> {
  const title = 'AWS credentials';
  const sts = new STSClient(awsClientConfig(options, region));
  try {
    const identity = await sts.send(new GetCallerIdentityCommand({}));
    const caller = { account: identity.Account ?? '', arn: identity.Arn ?? '' };
    return { result: { title, status: 'pass', detail: `account ${caller.account} as ${caller.arn}` }, caller };
  } catch (error) {
    return {
      result: {
        title,
        status: 'fail',
        detail: describeError(error),
        fix: `Sign in and name the profile: aws sso login --profile <profile>, then --profile <profile> (or export AWS_PROFILE=<profile>)`,
      },
    };
  } finally {
    sts.destroy();
  }
}

export async function bootstrap(options: TargetOptions, account: string, region: string): Promise<CheckResult> {
  const title = `CDK bootstrap (${region})`;
  const fix = `npx cdk bootstrap aws://${account}/${region}`;
  const ssm = new SSMClient(awsClientConfig(options, region));
  try {
    const { Parameter } = await ssm.send(new GetParameterCommand({ Name: BOOTSTRAP_VERSION_PARAMETER }));
    const version = Number(Parameter?.Value);
    return version >= MIN_BOOTSTRAP_VERSION
      ? { title, status: 'pass', detail: `version ${version} in ${region}` }
      : {
          title,
          status: 'fail',
          detail: `version ${Parameter?.Value ?? 'unknown'} in ${region}; at least ${MIN_BOOTSTRAP_VERSION} is needed`,
          fix,
        };
  } catch (error) {
    if (errorName(error) === 'ParameterNotFound') {
      return { title, status: 'fail', detail: `${region} of account ${account} is not bootstrapped`, fix };
    }
    return {
      title,
      status: 'fail',
      detail: describeError(error),
      fix: `Check that the credentials may call ssm:GetParameter on ${BOOTSTRAP_VERSION_PARAMETER}`,
    };
  } finally {
    ssm.destroy();
  }
}

/** The prefix the stack will ask for: the configured one, or the default the stack derives. */
function domainPrefixOf(config: PortalConfig, account: string): string {
  if (config.cognitoDomainPrefix) return config.cognitoDomainPrefix;
  const stack = new Stack(new App(), 'DomainPrefixProbe', { env: { account, region: config.region } });
  return PortalAuth.defaultDomainPrefix(stack, config.productName, config.environment);
}

/** The user pool of an existing portal stack, whose own domain is not a conflict. */
async function deployedUserPoolId(options: TargetOptions, config: PortalConfig): Promise<string | undefined> {
  const cloudFormation = new CloudFormationClient(awsClientConfig(options, config.region));
  try {
    const { Stacks } = await cloudFormation.send(
      new DescribeStacksCommand({ StackName: portalStackName(config.productName, config.environment) }),
    );
    return Stacks?.[0]?.Outputs?.find((output) => output.OutputKey === 'UserPoolId')?.OutputValue;
  } catch {
    return undefined;
  } finally {
    cloudFormation.destroy();
  }
}

export async function cognitoDomain(
  options: TargetOptions,
  config: PortalConfig,
  account: string,
): Promise<CheckResult> {
  const title = 'Cognito domain prefix';
  const prefix = domainPrefixOf(config, account);
  const cognito = new CognitoIdentityProviderClient(awsClientConfig(options, config.region));
  try {
    const { DomainDescription: domain } = await cognito.send(new DescribeUserPoolDomainCommand({ Domain: prefix }));
    if (!domain?.UserPoolId) return { title, status: 'pass', detail: `${prefix} is free in ${config.region}` };
    if (domain.UserPoolId === (await deployedUserPoolId(options, config))) {
      return { title, status: 'pass', detail: `${prefix} belongs to this portal's user pool ${domain.UserPoolId}` };
    }
    return {
      title,
      status: 'fail',
      detail: `${prefix} is taken by user pool ${domain.UserPoolId}`,
      fix: 'Choose another (lowercase letters, digits, hyphens; no aws, amazon, cognito): -c cognitoDomainPrefix=<prefix>',
    };
  } catch (error) {
    return {
      title,
      status: 'fail',
      detail: describeError(error),
      fix: 'Check that the credentials may call cognito-idp:DescribeUserPoolDomain',
    };
  } finally {
    cognito.destroy();
  }
}

/** Whether a certificate name (possibly `*.example.com`) covers a host name. */
export function nameCovers(certificateName: string, host: string): boolean {
  const name = certificateName.toLowerCase();
  if (!name.startsWith('*.')) return name === host;
  const dot = host.indexOf('.');
  return dot > 0 && host.slice(dot + 1) === name.slice(2);
}

export async function certificate(
  options: TargetOptions,
  config: PortalConfig,
  now = new Date(),
): Promise<CheckResult> {
  const title = 'Certificate (us-east-1)';
  if (!config.domainName || !config.certificateArn)
    return {
      title,
      status: 'n/a',
      detail: 'no custom domain (domainName not set): the portal uses its CloudFront address',
    };
  const acm = new ACMClient(awsClientConfig(options, GLOBAL_REGION));
  const domainName = config.domainName;
  const request = `aws acm request-certificate --region ${GLOBAL_REGION} --domain-name ${domainName} --validation-method DNS`;
  try {
    const { Certificate: found } = await acm.send(
      new DescribeCertificateCommand({ CertificateArn: config.certificateArn }),
    );
    const names = [found?.DomainName ?? '', ...(found?.SubjectAlternativeNames ?? [])].filter(Boolean);
    if (found?.Status !== 'ISSUED') {
      return {
        title,
        status: 'fail',
        detail: `${config.certificateArn} is ${found?.Status ?? 'in an unknown state'}`,
        fix:
          found?.Status === 'PENDING_VALIDATION'
            ? `Create the DNS validation record: aws acm describe-certificate --region ${GLOBAL_REGION} --certificate-arn ${config.certificateArn}`
            : request,
      };
    }
    if (found.NotAfter && found.NotAfter <= now)
      return { title, status: 'fail', detail: `expired on ${found.NotAfter.toISOString()}`, fix: request };
    if (!names.some((name) => nameCovers(name, domainName))) {
      return {
        title,
        status: 'fail',
        detail: `covers ${names.join(', ')}, not ${domainName}`,
        fix: `${request}\nthen set certificateArn to the new certificate`,
      };
    }
    return { title, status: 'pass', detail: `issued, covers ${domainName}` };
  } catch (error) {
    return {
      title,
      status: 'fail',
      detail: describeError(error),
      fix: `Check certificateArn (a certificate in ${GLOBAL_REGION}) and acm:DescribeCertificate permission`,
    };
  } finally {
    acm.destroy();
  }
}

export async function webAcl(options: TargetOptions, config: PortalConfig): Promise<CheckResult> {
  const title = 'WAF web ACL';
  if (!config.webAclArn) return { title, status: 'n/a', detail: 'none configured (webAclArn not set)' };
  const match = /:global\/webacl\/([^/]+)\/([^/]+)$/.exec(config.webAclArn);
  const waf = new WAFV2Client(awsClientConfig(options, GLOBAL_REGION));
  try {
    const { WebACL: acl } = await waf.send(
      new GetWebACLCommand({ Name: match?.[1], Id: match?.[2], Scope: 'CLOUDFRONT' }),
    );
    return { title, status: 'pass', detail: `${acl?.Name ?? match?.[1]} exists with CLOUDFRONT scope` };
  } catch (error) {
    if (errorName(error) === 'WAFNonexistentItemException') {
      return {
        title,
        status: 'fail',
        detail: `no CLOUDFRONT-scope web ACL ${config.webAclArn}`,
        fix: `List the ones there are: aws wafv2 list-web-acls --scope CLOUDFRONT --region ${GLOBAL_REGION}`,
      };
    }
    return {
      title,
      status: 'fail',
      detail: describeError(error),
      fix: 'Check webAclArn and wafv2:GetWebACL permission',
    };
  } finally {
    waf.destroy();
  }
}

import { GenerateEmbedUrlForRegisteredUserCommand } from '@aws-sdk/client-quicksight';
import {
  deploymentDashboardFeatures,
  featureConfigurations,
  readDashboardFeaturesVariable,
  type DashboardFeature,
} from '#contracts/dashboard-features.ts';
import { ENV } from '#contracts/env.ts';
import { QUICKSIGHT_FAILURES_METRIC } from '#contracts/metrics.ts';
import { NOT_ASSIGNED_MESSAGE, type EmbedResponse } from '#contracts/embed.ts';
import { absoluteSessionSeconds, type Caller } from '../shared/auth/caller.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { quicksight } from '../shared/aws/quicksight.ts';
import { companyNamesOfUser } from '../shared/data/companies.ts';
import { type ViewItem, viewOfDashboard } from '../shared/data/views.ts';
import { allowedOrigins, optionalEnv } from '../shared/env.ts';
import { ConfigurationError, ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { countOne, createMetrics } from '../shared/metrics.ts';
import {
  QUICKSIGHT_USER_NOT_FOUND,
  describeQuickSightUser,
  quicksightFailure,
  quicksightSettings,
  userArn,
} from '../shared/quicksight.ts';
import { embedOriginsProblems } from '#contracts/embed-origins.ts';

const metrics = createMetrics('embed');

export { NOT_ASSIGNED_MESSAGE };
export const NOT_REGISTERED_MESSAGE =
  'Your account is not registered in QuickSight yet. Please contact your administrator.';

/** QuickSight accepts 15 to 600 minutes; 60 when not configured. */
const sessionMinutes = (): number => {
  const configured = optionalEnv(ENV.embedSessionMinutes);
  if (configured === undefined) return 60;
  const minutes = Number(configured);
  if (!Number.isInteger(minutes) || minutes < 15 || minutes > 600) {
    throw new ConfigurationError([ENV.embedSessionMinutes], {
      reason: `${ENV.embedSessionMinutes} must be a whole number from 15 to 600`,
    });
  }
  return minutes;
};

/**
 * The deployment's dashboardFeatures (EMBED_DASHBOARD_FEATURES, read by the rule the construct
 * wrote it with: `none` is no feature), every other feature said to be off. Without the
 * variable: the default features. A name that is not a feature is a configuration error, never
 * passed on.
 */
export const enabledDashboardFeatures = (): DashboardFeature[] => {
  const configured = optionalEnv(ENV.embedDashboardFeatures);
  if (configured === undefined) return deploymentDashboardFeatures(undefined);
  const { features, unknown } = readDashboardFeaturesVariable(configured);
  if (unknown.length > 0) {
    throw new ConfigurationError([ENV.embedDashboardFeatures], {
      reason: `${ENV.embedDashboardFeatures} names no dashboard feature: ${unknown.join(', ')}`,
    });
  }
  return features;
};

/** QuickSight's shortest embed session. */
const MIN_EMBED_MINUTES = 15;

/**
 * The embed session never outlives the portal session: at most what is left of the caller's
 * absolute session lifetime (from `auth_time`). QuickSight's floor of 15 minutes still
 * applies; the portal removes the frame when its own session ends.
 */
export const embedLifetimeMinutes = (authTime: number, nowMs = Date.now()): number => {
  const remaining = Math.floor((authTime + absoluteSessionSeconds() - nowMs / 1000) / 60);
  return Math.max(MIN_EMBED_MINUTES, Math.min(sessionMinutes(), remaining));
};

/**
 * ALLOWED_ORIGINS as AllowedDomains. The configuration refuses at synth what QuickSight would
 * refuse; a function configured otherwise answers that instead of failing at QuickSight.
 */
const embedDomains = (): string[] => {
  const domains = allowedOrigins();
  const problems = embedOriginsProblems(domains);
  if (problems.length > 0) {
    throw new ConfigurationError([ENV.allowedOrigins], {
      reason: `${ENV.allowedOrigins} cannot be used as QuickSight AllowedDomains: ${problems.join('; ')}`,
    });
  }
  return domains;
};

/**
 * An embed URL for a dashboard assigned to the caller, for the caller's own QuickSight user
 * (derived from the token, never from the request), with the view it was issued through.
 * Assignment is checked first, so an unassigned dashboard costs no QuickSight call at all.
 */
export const embedUrlFor = async (
  caller: Caller,
  dashboardId: string,
): Promise<{ response: EmbedResponse; view: ViewItem }> => {
  const view = await viewOfDashboard(caller.email, dashboardId);
  if (view === undefined) throw new ForbiddenError(NOT_ASSIGNED_MESSAGE);
  const settings = quicksightSettings();
  const minutes = embedLifetimeMinutes(caller.authTime);
  const domains = embedDomains();
  const features = enabledDashboardFeatures();
  try {
    const result = await quicksight.send(
      new GenerateEmbedUrlForRegisteredUserCommand({
        AwsAccountId: settings.accountId,
        UserArn: userArn(settings, caller.email),
        SessionLifetimeInMinutes: minutes,
        AllowedDomains: domains.length > 0 ? domains : undefined,
        ExperienceConfiguration: {
          Dashboard: { InitialDashboardId: dashboardId, FeatureConfigurations: featureConfigurations(features) },
        },
      }),
    );
    if (!result.EmbedUrl) throw new Error('QuickSight answered without an embed URL');
    return {
      response: {
        url: result.EmbedUrl,
        sessionExpiresAt: new Date(Date.now() + minutes * 60_000).toISOString(),
        companies: await companyNamesOfUser(caller.email),
        features,
      },
      view,
    };
  } catch (error) {
    // GenerateEmbedUrlForRegisteredUser names an unknown user QuickSightUserNotFoundException.
    if (isAwsError(error, QUICKSIGHT_USER_NOT_FOUND)) throw new NotFoundError(NOT_REGISTERED_MESSAGE);
    if (isAwsError(error, 'ResourceNotFoundException')) {
      // The dashboard (or, as older answers had it, the caller) is unknown to QuickSight: say which.
      if ((await describeQuickSightUser(caller.email)) === undefined) throw new NotFoundError(NOT_REGISTERED_MESSAGE);
      throw new NotFoundError(
        `Dashboard ${dashboardId} was not found in QuickSight. Please contact your administrator.`,
      );
    }
    // The rest is QuickSight failing a caller who may see the dashboard: the operations pack alarms on it.
    countOne(metrics, QUICKSIGHT_FAILURES_METRIC, { errorName: error instanceof Error ? error.name : 'Unknown' });
    if (isAwsError(error, 'AccessDeniedException')) {
      throw new ForbiddenError('QuickSight denied access to this dashboard. Please contact your administrator.');
    }
    throw quicksightFailure('Failed to get the dashboard URL from QuickSight', error);
  }
};

import { z } from 'zod';
import { checkAllowedDomains } from './allowed-domains.ts';
import { findSampleDashboard } from '#emulators/sample-dashboards/catalog.ts';
import { parsePrincipal } from './arns.ts';
import { issueEmbedUrl } from './embed-sessions.ts';
import { QuickSightError, dashboardNotFound, invalidParameter, quickSightUserNotFound } from './errors.ts';
import { parseBody, requireAccount, requireNamespace } from './input.ts';
import type { ApiOperation } from './api-types.ts';

/** GenerateEmbedUrlForRegisteredUser for the dashboard experience. */

const DEFAULT_SESSION_MINUTES = 600;
const MIN_SESSION_MINUTES = 15;
const MAX_SESSION_MINUTES = 600;

/** The API reference: "The session lifetime must be in [15-600] minutes range." */
function sessionLifetime(minutes: number | undefined): number {
  if (minutes === undefined) return DEFAULT_SESSION_MINUTES;
  if (!Number.isInteger(minutes) || minutes < MIN_SESSION_MINUTES || minutes > MAX_SESSION_MINUTES) {
    throw new QuickSightError(
      'SessionLifetimeInMinutesInvalidException',
      `The session lifetime must be ${MIN_SESSION_MINUTES}-${MAX_SESSION_MINUTES} minutes; got ${minutes}.`,
    );
  }
  return minutes;
}

/** `{ Enabled: boolean }`, the shape of every feature of RegisteredUserDashboardFeatureConfigurations. */
const feature = z
  .object({ Enabled: z.boolean({ error: 'must be a boolean' }) }, { error: 'must be an object with Enabled' })
  .optional();

/**
 * RegisteredUserDashboardFeatureConfigurations as the SDK model (@aws-sdk/client-quicksight)
 * defines it; a member it does not define is refused rather than ignored.
 * https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RegisteredUserDashboardFeatureConfigurations.html
 */
const dashboardFeatures = z.strictObject(
  {
    StatePersistence: feature,
    Bookmarks: feature,
    SharedView: feature,
    AmazonQInQuickSight: z
      .strictObject({ ExecutiveSummary: feature }, { error: 'must be an object with ExecutiveSummary' })
      .optional(),
    Schedules: feature,
    RecentSnapshots: feature,
    ThresholdAlerts: feature,
    DashboardCustomizationSummary: feature,
  },
  { error: 'is not a RegisteredUserDashboardFeatureConfigurations' },
);

/** The features turned on, as the embed page shows them (`AmazonQInQuickSight` for its executive summary). */
function enabledFeatures(configurations: z.infer<typeof dashboardFeatures> | undefined): string[] {
  if (!configurations) return [];
  const { AmazonQInQuickSight, ...flat } = configurations;
  const names = Object.entries(flat).flatMap(([name, value]) => (value?.Enabled ? [name] : []));
  return AmazonQInQuickSight?.ExecutiveSummary?.Enabled ? [...names, 'AmazonQInQuickSight'] : names;
}

const generateSchema = z.object({
  UserArn: z.string({ error: 'is required' }).min(1).max(1024),
  SessionLifetimeInMinutes: z.number({ error: 'must be a number of minutes' }).optional(),
  AllowedDomains: z.array(z.string({ error: 'must be a string' })).optional(),
  ExperienceConfiguration: z.object(
    {
      Dashboard: z
        .object({
          InitialDashboardId: z.string({ error: 'is required' }).min(1).max(512),
          FeatureConfigurations: dashboardFeatures.optional(),
        })
        .optional(),
      QuickSightConsole: z.unknown().optional(),
      QSearchBar: z.unknown().optional(),
      DashboardVisual: z.unknown().optional(),
      GenerativeQnA: z.unknown().optional(),
      QuickChat: z.unknown().optional(),
    },
    { error: 'is required' },
  ),
});

export const embedOperations: readonly ApiOperation[] = [
  {
    name: 'GenerateEmbedUrlForRegisteredUser',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/embed-url/registered-user',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'GenerateEmbedUrlForRegisteredUser');
      const input = parseBody(generateSchema, request.body);
      const { Dashboard: dashboardExperience, ...otherExperiences } = input.ExperienceConfiguration;
      if (Object.values(otherExperiences).some((v) => v !== undefined)) {
        throw invalidParameter('This account embeds the Dashboard experience only');
      }
      if (!dashboardExperience) throw invalidParameter('ExperienceConfiguration.Dashboard is required');

      const allowedDomains = checkAllowedDomains(input.AllowedDomains ?? []);
      const lifetimeMinutes = sessionLifetime(input.SessionLifetimeInMinutes);

      const principal = parsePrincipal(context.scope, input.UserArn);
      if (principal?.kind !== 'user')
        throw invalidParameter(`UserArn is not a user ARN of this account: ${input.UserArn}`);
      const namespace = requireNamespace(principal.namespace);
      if (!context.store.state.user(namespace, principal.userName)) throw quickSightUserNotFound(input.UserArn);

      const dashboardId = dashboardExperience.InitialDashboardId;
      if (!findSampleDashboard(dashboardId)) throw dashboardNotFound(dashboardId);
      // The user's permission on the dashboard is not checked here: QuickSight issues the URL
      // and the embedded page then says the user is not authorized (checked on every load).

      const embedUrl = await issueEmbedUrl(context.store, context.embedBaseUrl, context.now(), {
        enabledFeatures: enabledFeatures(dashboardExperience.FeatureConfigurations),
        namespace,
        userName: principal.userName,
        dashboardId,
        allowedDomains,
        lifetimeMinutes,
      });
      return { body: { EmbedUrl: embedUrl } };
    },
  },
];

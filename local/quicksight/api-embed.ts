import { z } from 'zod';
import { canViewDashboard } from './access.ts';
import { findSampleDashboard, parsePrincipal } from './catalog.ts';
import { issueEmbedUrl } from './embed-sessions.ts';
import { QuickSightError, dashboardNotFound, invalidParameter, userNotFound } from './errors.ts';
import { parseBody, requireAccount, requireNamespace } from './input.ts';
import type { ApiOperation } from './api-types.ts';

/** GenerateEmbedUrlForRegisteredUser for the dashboard experience. */

const DEFAULT_SESSION_MINUTES = 600;
const MAX_ALLOWED_DOMAINS = 3;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);
const DNS_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * An origin the embedded page may be framed by, as QuickSight accepts them: https with a
 * domain name (optionally `*.` for its subdomains); plain http only for the local machine,
 * which QuickSight also allows for development. The result goes into a CSP header, so only
 * these exact shapes pass.
 */
export function parseAllowedDomain(value: string): string | undefined {
  const match = /^(https?):\/\/([^/:]+)(?::(\d{1,5}))?\/?$/.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const [, scheme, host = '', port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  const loopback = LOOPBACK_HOSTS.has(host);
  if (!loopback && !DNS_NAME.test(host)) return undefined;
  if (scheme === 'http' && !loopback) return undefined;
  return `${scheme}://${host}${port === undefined ? '' : `:${port}`}`;
}

const generateSchema = z.object({
  UserArn: z.string({ error: 'is required' }).min(1).max(1024),
  SessionLifetimeInMinutes: z
    .number({ error: 'must be a number of minutes' })
    .int()
    .min(15, 'must be between 15 and 600')
    .max(600, 'must be between 15 and 600')
    .optional(),
  AllowedDomains: z.array(z.string().max(512)).max(MAX_ALLOWED_DOMAINS, `lists at most ${MAX_ALLOWED_DOMAINS} domains`).optional(),
  ExperienceConfiguration: z.object(
    {
      Dashboard: z
        .object({ InitialDashboardId: z.string({ error: 'is required' }).min(1).max(512), FeatureConfigurations: z.unknown().optional() })
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

      const allowedDomains = (input.AllowedDomains ?? []).map((domain) => {
        const parsed = parseAllowedDomain(domain);
        if (!parsed) throw invalidParameter(`AllowedDomains contains an invalid domain: ${domain}`);
        return parsed;
      });

      const principal = parsePrincipal(context.scope, input.UserArn);
      if (principal?.kind !== 'user') throw invalidParameter(`UserArn is not a user ARN of this account: ${input.UserArn}`);
      const namespace = requireNamespace(principal.namespace);
      if (!context.store.state.user(namespace, principal.userName)) throw userNotFound(input.UserArn);

      const dashboardId = dashboardExperience.InitialDashboardId;
      if (!findSampleDashboard(dashboardId)) throw dashboardNotFound(dashboardId);
      if (!canViewDashboard(context.store.state, context.scope, namespace, principal.userName, dashboardId)) {
        throw new QuickSightError(
          'AccessDeniedException',
          `User ${input.UserArn} is not authorized to view dashboard ${dashboardId}`,
        );
      }

      const embedUrl = await issueEmbedUrl(context.store, context.baseUrl, context.now(), {
        namespace,
        userName: principal.userName,
        dashboardId,
        allowedDomains,
        lifetimeMinutes: input.SessionLifetimeInMinutes ?? DEFAULT_SESSION_MINUTES,
      });
      return { body: { EmbedUrl: embedUrl } };
    },
  },
];

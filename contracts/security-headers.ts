/**
 * Security headers of the SPA. CloudFront's response-headers policy and local mode's web
 * server are both built from this module, so local mode behaves as the deployed site does;
 * only the allowed addresses differ.
 */
export interface CspSources {
  /** Cognito, AppSync and the function URLs. */
  readonly connectSrc: readonly string[];
  /** Where embedded dashboards come from (QuickSight). */
  readonly frameSrc: readonly string[];
}

export function contentSecurityPolicy({ connectSrc, frameSrc }: CspSources): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The toast library injects its stylesheet at run time and components set style
    // attributes; no script may be inlined.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${connectSrc.join(' ')}`.trim(),
    `frame-src ${frameSrc.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const HSTS_MAX_AGE_SECONDS = 63_072_000; // two years

/**
 * The referrer policy keeps the origin on cross-origin requests: QuickSight checks the
 * embedding page's origin against AllowedDomains.
 */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

export function securityHeaders(sources: CspSources): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(sources),
    'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': REFERRER_POLICY,
  };
}
